package play

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Config is what a Service needs.
type Config struct {
	// Games lists the playable games.
	Games engine.Registry
	// Store is the event log.
	Store events.Store
	// Repo stores the projections; its Save must accept the Store's Tx.
	Repo projections.Repository
	// Accounts stores the service's own records: proposals, blocked
	// addresses, sign-in links and sessions.
	Accounts Accounts
	// Visits remembers when each seat last opened its play page.
	Visits Visits
	// Records stores the records read model: the people's records, the
	// ratings and the leaderboards (record.go); nil keeps none.
	Records projections.RecordStore
	// Secret derives the seat and admin tokens (PBEM_SECRET).
	Secret []byte
	// Now is the clock (deadlines); nil means time.Now.
	Now func() time.Time
	// GameCache is how many games (rows and decoded states) to keep in
	// memory (see gameCache): 0 means DefaultGameCache, a negative number none.
	GameCache int
	// Writers is how many batches of appends may be written at once (see
	// writer): 0 means DefaultWriters.
	Writers int
	// Moved, if set, is called after each player's move commits (a person's
	// or a bot's, by the API or by email), with the game's name
	// ("lords-of-scotland"): the moves metric.
	Moved func(game string)
	// MailGrace is how long the emails a seat's move causes wait before
	// they are sent, so that a move taken back sends none
	// (PBEM_MAIL_GRACE); 0 sends them at once.
	MailGrace time.Duration
	// MailDue, if set, is called after an append that wrote or owes
	// emails commits, with when the first of them is due (the service
	// clock plus its delay): serve gives the mail worker's Due, so that
	// the worker looks for work when there is some (notify/alarm.go).
	MailDue func(at time.Time)
	// BotAwaited, if set, is called after an append commits that leaves
	// a game awaiting a seat a bot plays: serve wakes the bot worker with
	// it, so that the appends that give a bot nothing to do cost it no
	// query (it polls for the rest: events/play/bots).
	BotAwaited func()
	// Seeds is where new games' ids and seeds (and proposals' ids) are
	// read from; nil means crypto/rand. The fair-play tests read the same
	// stream in two worlds, for two games with one id and one seed.
	Seeds io.Reader
	// DecisionPause is how long after it began a decision the system
	// takes (a bot's move, a timeout) is appended at the earliest, so
	// that its time tells nothing of how long the decision took, which
	// depends on what the decider holds (see "Time" in the package doc).
	// serve sets it (PBEM_DECISION_PAUSE); 0 appends at once.
	DecisionPause time.Duration
	// Sleep waits d on the service clock (Now), or until ctx ends, and
	// returns ctx's error if it ended: the decision pause is waited with
	// it. nil means a timer. A test that gives the service a clock of its
	// own gives a Sleep that moves that clock, so that a pause passes
	// without real time and its length is exact.
	Sleep func(ctx context.Context, d time.Duration) error
	// AwayMaxWait is how long, at most, one game's deadlines wait for a
	// seat whose person is away (PBEM_AWAY_MAX_WAIT; 0 means
	// DefaultAwayMaxWait); AwayDays is how many days of away a person may
	// take in any 365 (PBEM_AWAY_DAYS; 0 means DefaultAwayDays). See away.go.
	AwayMaxWait time.Duration
	AwayDays    int
}

// Service is the game service used by the API, the email replies and the
// deadline scheduler. It is safe for concurrent use.
type Service struct {
	games    engine.Registry
	store    events.Store
	repo     projections.Repository
	accounts Accounts
	visits   Visits
	records  projections.RecordStore
	secret   []byte
	now      func() time.Time
	cache    *gameCache
	writer   *writer
	versions *versionReader
	moved    func(game string)
	// pastViews caches seats' views at past versions (catchup.go).
	pastViews *viewCache
	// chatMu serialises each game's table talk (chat.go).
	chatMu chatLocks
	grace  time.Duration
	// mailDue and botAwaited are Config.MailDue and Config.BotAwaited.
	mailDue    func(at time.Time)
	botAwaited func()
	seeds      io.Reader
	// pause is Config.DecisionPause.
	pause time.Duration
	// sleep is Config.Sleep.
	sleep func(ctx context.Context, d time.Duration) error
	// awayMaxWait and awayDays are Config.AwayMaxWait and AwayDays.
	awayMaxWait time.Duration
	awayDays    int
}

// New returns a Service.
func New(c Config) *Service {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	n := c.GameCache
	if n == 0 {
		n = DefaultGameCache
	}
	seeds := c.Seeds
	if seeds == nil {
		seeds = rand.Reader
	}
	sleep := c.Sleep
	if sleep == nil {
		sleep = sleepTimer
	}
	s := &Service{seeds: seeds, games: c.Games, store: c.Store, repo: c.Repo, accounts: c.Accounts, visits: c.Visits, records: c.Records, secret: c.Secret, now: now, cache: newGameCache(n),
		moved: c.Moved, grace: c.MailGrace, mailDue: c.MailDue, botAwaited: c.BotAwaited, pause: c.DecisionPause, sleep: sleep}
	s.awayMaxWait, s.awayDays = c.AwayMaxWait, c.AwayDays
	if s.awayMaxWait <= 0 {
		s.awayMaxWait = DefaultAwayMaxWait
	}
	if s.awayDays <= 0 {
		s.awayDays = DefaultAwayDays
	}
	s.writer = newWriter(s, c.Writers)
	s.versions = &versionReader{repo: c.Repo}
	s.pastViews = newViewCache()
	return s
}

// Now is the service clock.
func (s *Service) Now() time.Time { return s.now() }

// Games lists the names of the playable games.
func (s *Service) Games() []string {
	out := make([]string, 0, len(s.games))
	for n := range s.games {
		out = append(out, n)
	}
	return out
}

// engineOf returns the engine of g.
func (s *Service) engineOf(g *projections.Game) (engine.Game, error) {
	eng, ok := s.games[g.Game]
	if !ok {
		return nil, fmt.Errorf("play: game %s uses unknown engine %q", g.ID, g.Game)
	}
	return eng, nil
}

// game returns game id's row as the database has it now: the cached row
// when the database's version of the game is the cached one (a read of one
// column, shared with concurrent reads: see versionReader), else the row
// read whole. The row is shared: callers must not
// modify it. Errors: events.CodeNotFound.
func (s *Service) game(ctx context.Context, id string) (*projections.Game, error) {
	if e, ok := s.cache.get(id); ok {
		v, err := s.versions.version(ctx, id)
		if err != nil {
			return nil, err
		}
		if v == e.g.Version {
			return e.g, nil
		}
	}
	return s.load(ctx, id)
}

// knownGame returns game id's row as this process last saw it, read from
// the database only when the cache has none or an older version than
// atLeast. Another serve process may have moved the game on since: only a
// move may use it, because its append checks the version in the database.
func (s *Service) knownGame(ctx context.Context, id string, atLeast int64) (g *projections.Game, cached bool, err error) {
	if e, ok := s.cache.get(id); ok && e.g.Version >= atLeast {
		return e.g, true, nil
	}
	g, err = s.load(ctx, id)
	return g, false, err
}

// load reads game id's row, brings its state up to date (catchUp) and
// caches both.
func (s *Service) load(ctx context.Context, id string) (*projections.Game, error) {
	g, err := s.repo.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	st, err := s.catchUp(ctx, g)
	if err != nil {
		return nil, err
	}
	s.cache.put(g, st)
	return g, nil
}

// state returns g's engine state at g.Version: the cache's, else g's
// snapshot caught up with the events after it (catchUp). The state is
// shared: callers must not modify it (Clone it first).
func (s *Service) state(ctx context.Context, g *projections.Game) (engine.Game, engine.State, error) {
	eng, err := s.engineOf(g)
	if err != nil {
		return nil, nil, err
	}
	if st := s.cache.state(g); st != nil {
		return eng, st, nil
	}
	st, err := s.catchUp(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	s.cache.put(g, st)
	return eng, st, nil
}

// append appends evs to g's stream at g's version, projecting them in the
// same transaction, through the writer (group commit with other games'
// appends). decoded holds the engine events of evs (nil for service
// events). extra, if set, adds to the Change inside the transaction (the
// remembered answer of a keyed move). It returns the new game row and
// state (cached: read-only), or ran=false when the store answered from an
// earlier append with the same idempotency key (nothing written).
func (s *Service) append(ctx context.Context, g *projections.Game, st engine.State, evs []events.NewEvent, decoded []engine.Event,
	extra func(*projections.Change, engine.State) error) (ng *projections.Game, nst engine.State, ran bool, err error) {
	return s.appendPending(ctx, &pending{g: g, st: st, evs: evs, decoded: decoded, extra: extra})
}

// appendPending is append for a prepared pending (a take-back sets its
// rewind state), with the forced steps it leads to (withForced).
func (s *Service) appendPending(ctx context.Context, p *pending) (ng *projections.Game, nst engine.State, ran bool, err error) {
	g := p.g
	if err := s.withForced(p); err != nil {
		return nil, nil, false, err
	}
	if err := p.notBefore.wait(ctx); err != nil {
		return nil, nil, false, err
	}
	if err := s.writer.write(ctx, p); err != nil {
		if events.IsConflict(err) {
			s.cache.drop(g.ID)
			return nil, nil, false, events.Errorf(events.CodeConflict, "the game has moved on: reload it and try again")
		}
		return nil, nil, false, err
	}
	if p.ran {
		s.cache.put(p.ng, p.nst)
	}
	if p.mail && s.mailDue != nil {
		s.mailDue(s.now().Add(p.mailIn))
	}
	if p.ran && s.botAwaited != nil && awaitsBot(p.ng) {
		s.botAwaited()
	}
	return p.ng, p.nst, p.ran, nil
}

// project computes the Change of p's appended events (inside the append's
// transaction) and keeps the new row and state in p.
func (s *Service) project(p *pending, appended []events.Event) (*projections.Change, error) {
	g, st := p.g, p.st
	now := s.now()
	pr := &projections.Projector{Games: s.games, Game: g.Clone(), Outbox: true, MailGrace: s.grace,
		Now: func(events.Event) time.Time { return now }}
	if p.rewind != nil {
		pr.Rewind = func(int64) (engine.State, error) { return p.rewind.Clone(), nil }
	}
	if st != nil {
		eng, err := s.engineOf(g)
		if err != nil {
			return nil, err
		}
		pr.Engine, pr.State = eng, st.Clone()
	}
	b, err := pr.Apply(appended, p.decoded)
	if err != nil {
		return nil, err
	}
	c := &projections.Change{Game: pr.Game, Create: st == nil, SeatTokens: b.Tokens, AdminToken: b.AdminToken, Outbox: b.Outbox,
		Turns: b.Turns, TakenBack: b.TakenBack}
	if p.extra != nil {
		if err := p.extra(c, pr.State); err != nil {
			return nil, err
		}
	}
	dueFrom(c.Outbox, now)
	p.ng, p.nst, p.ran = pr.Game, pr.State, true
	p.mail, p.mailIn = firstDue(c)
	return c, nil
}

// firstDue reports whether c writes or owes emails and the least delay
// among them (outbox.Row's Delay).
func firstDue(c *projections.Change) (bool, time.Duration) {
	if len(c.Outbox) == 0 && len(c.Turns) == 0 {
		return false, 0
	}
	least := time.Duration(math.MaxInt64)
	for _, r := range c.Outbox {
		least = min(least, r.Delay)
	}
	for _, t := range c.Turns {
		least = min(least, time.Duration(t.DelayUS)*time.Microsecond)
	}
	return true, max(least, 0)
}

// awaitsBot reports whether active game g awaits a seat a bot plays.
func awaitsBot(g *projections.Game) bool {
	if g.Status != projections.StatusActive {
		return false
	}
	for _, n := range g.ToMove {
		if s := g.SeatAt(n); s != nil && s.Bot != "" {
			return true
		}
	}
	return false
}

// newID returns a fresh random game id (16 lowercase base32 characters),
// read from the service's source of seeds.
func (s *Service) newID() (string, error) {
	b := make([]byte, 10)
	if _, err := io.ReadFull(s.seeds, b); err != nil {
		return "", fmt.Errorf("play: random id: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)), nil
}

// ForgetCached empties the service's caches (games' rows and states,
// seats' past views): the database they came from was replaced, as when
// its schema is migrated down and up again under a running server.
func (s *Service) ForgetCached() {
	s.cache.clear()
	s.pastViews.clear()
}

// dueFrom writes the rows that have no time (outbox.Row.At) at now, the
// service's clock, so that they are due (after their Delay) by the clock
// the service and its outbox worker keep, not by the database's.
func dueFrom(rows []outbox.Row, now time.Time) {
	for i := range rows {
		if rows[i].At.IsZero() {
			rows[i].At = now.UTC()
		}
	}
}
