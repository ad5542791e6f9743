package projections

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"pbem/events/pbemevent"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/projections/outbox"
)

// Projector folds a game's events into its projection rows. The live path
// (the game service's append hook) and rebuild use the same code, so a
// rebuild equals the live tables. Set Games, Game and Now; Engine and State
// are those of the game before the events (nil before its creation).
type Projector struct {
	Games  engine.Registry
	Engine engine.Game
	Game   *Game
	State  engine.State
	// Now is the clock for deadlines: the service clock live, each event's
	// RecordedAt in a rebuild.
	Now func(e events.Event) time.Time
	// Outbox enables email rows (live only).
	Outbox bool
	// MailGrace is how long the emails of a seat's own move, or of a bot's,
	// wait before they may be sent (PBEM_MAIL_GRACE): a move taken back
	// within it sends none, and the worker drops a your-turn email that is
	// stale when its grace ends (notify.Freshness), so moves that follow
	// each other within it (a bot replying at once) give one email. A
	// timeout's emails go at once. 0 sends them at once.
	MailGrace time.Duration
	// Rewind gives the engine state just before version from (a fresh
	// copy), for a pbem.takeback: live, the state the service computed
	// before the append; in a rebuild, pbemevent.StateBefore over the stream.
	Rewind func(from int64) (engine.State, error)
}

// Batch is what one append changed, beyond the game row.
type Batch struct {
	Outbox []outbox.Row
	Tokens []Seat
	// AdminToken is set when the admin link was revoked: the game's
	// AdminHash (set by the service before the append) is written.
	AdminToken bool
	// TakenBack lists the moves taken back: their pending emails are
	// cancelled in the same transaction.
	TakenBack []pbemevent.Takeback
}

// Apply folds one append's events. decoded may hold the engine events the
// service just decided (nil entries are decoded from the stored data).
func (p *Projector) Apply(appended []events.Event, decoded []engine.Event) (*Batch, error) {
	b := &Batch{}
	g := p.Game
	before := slices.Clone(g.ToMove)
	beforeStatus := g.Status
	created, freshDeadline, resumed, roundEnd := false, false, false, false
	var explicit *time.Time // a deadline an event sets
	var timedOut []int      // seats whose deadline passed (pbem.timeout)
	lines := &lineBook{}
	var notice string // what a notice email announces (see noticeMails)
	var last events.Event
	// ending is the last event that may have ended the game: an engine
	// event or an abort. The service events an ended game still takes (a
	// rematch) come after it, and must not move its end.
	var ending events.Event
	seatMove := false // an engine event of a seat's own move or a bot's (its emails wait MailGrace)
	tookBack := false // a take-back replaced the state: it is stored now (see advance in events/play)
	for i, e := range appended {
		last = e
		if !pbemevent.IsServiceEvent(e.Type) || e.Type == pbemevent.TypeAborted {
			ending = e
		}
		var ev engine.Event
		if pbemevent.IsServiceEvent(e.Type) {
			switch e.Type {
			case pbemevent.TypeCreated:
				if err := p.create(e); err != nil {
					return nil, err
				}
				created, freshDeadline = true, true
			case pbemevent.TypeTimeout:
				var t pbemevent.Timeout
				if err := json.Unmarshal(e.Data, &t); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				timedOut = append(timedOut, t.Seats...)
				freshDeadline = true
			case pbemevent.TypePaused:
				g.Status = StatusPaused
				notice = NoticePaused
			case pbemevent.TypeResumed:
				var r pbemevent.Resumed
				if err := json.Unmarshal(e.Data, &r); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				g.Status = StatusActive
				resumed = true
				notice = NoticeResumed
				d := r.DeadlineAt.UTC()
				explicit = &d
			case pbemevent.TypeExtended:
				var x pbemevent.Extended
				if err := json.Unmarshal(e.Data, &x); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				g.Extensions++
				notice = NoticeExtended
				d := x.DeadlineAt.UTC()
				explicit = &d
			case pbemevent.TypeAborted:
				g.Status = StatusAborted
			case pbemevent.TypeChat:
				if p.Outbox {
					if err := p.chatMails(b, e); err != nil {
						return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
					}
				}
			case pbemevent.TypeEmailChanged, pbemevent.TypePlayerReplaced:
				if err := p.reseat(b, e); err != nil {
					return nil, err
				}
				if e.Type == pbemevent.TypePlayerReplaced {
					notice = NoticeReplaced
				}
			case pbemevent.TypeSeatBot:
				back, err := p.seatBot(b, e)
				if err != nil {
					return nil, err
				}
				notice = NoticeBot
				if back {
					notice = NoticeBotBack
				}
			case pbemevent.TypeLanguage:
				if err := p.language(b, e); err != nil {
					return nil, err
				}
			case pbemevent.TypeTakeback:
				if err := p.takeBack(b, e); err != nil {
					return nil, err
				}
				tookBack = true
			case pbemevent.TypeAdminLinkRevoked:
				b.AdminToken = true
			case pbemevent.TypeLinkResent:
				var l pbemevent.LinkResent
				if err := json.Unmarshal(e.Data, &l); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				for j := range g.Seats {
					if g.Seats[j].Seat == l.Seat {
						g.Seats[j].TokenGen = l.TokenGen
						b.Tokens = append(b.Tokens, g.Seats[j])
					}
				}
				if p.Outbox {
					if s := g.SeatAt(l.Seat); s != nil {
						if err := p.addMail(b, outbox.Link, s, e.Version, nil); err != nil {
							return nil, err
						}
					}
				}
			}
		} else {
			if p.State == nil {
				return nil, fmt.Errorf("projections: %s v%d: engine event before pbem.created", e.Stream, e.Version)
			}
			if i < len(decoded) && decoded[i] != nil {
				ev = decoded[i]
			} else {
				var err error
				if ev, err = pbemevent.Decode(p.Engine, e); err != nil {
					return nil, err
				}
			}
			p.State.Apply(ev)
			if _, ok := pbemevent.SeatOfActor(e.Meta.Actor); ok || strings.HasPrefix(e.Meta.Actor, "bot:") {
				seatMove = true
			}
			if p.Engine.RoundEnd(ev) {
				roundEnd = true
			}
		}
		g.Version = e.Version
		g.UpdatedAt = e.RecordedAt.UTC()
		lines.add(p.Engine, e, ev, g.Players)
	}
	if p.State == nil {
		return nil, fmt.Errorf("projections: no pbem.created event")
	}
	g.ToMove = NonNil(p.State.ToMove())
	if g.Status != StatusAborted {
		if r := p.State.Result(); r != nil {
			g.Status = StatusFinished
			g.Result = r
		}
	}
	if g.Ended() {
		g.ToMove = []int{}
		if g.FinishedAt == nil {
			if ending.Stream == "" {
				ending = last
			}
			t := ending.RecordedAt.UTC()
			g.FinishedAt = &t
		}
	}
	if g.SnapshotDue() || tookBack {
		// The repository stores State with this Change. A take-back's state
		// is not the previous one plus events, so it is always stored: no
		// snapshot ever precedes a take-back. Between snapshots the state
		// is not encoded at all: State keeps the last snapshot's bytes.
		state, err := MarshalState(p.State)
		if err != nil {
			return nil, fmt.Errorf("projections: marshal state of %s: %w", g.ID, err)
		}
		g.State, g.StateVersion = state, g.Version
	}
	switch {
	case g.Status != StatusActive:
		g.DeadlineAt, g.ReminderAt = nil, nil
	case explicit != nil:
		r := explicit.Add(-g.ReminderBefore)
		g.DeadlineAt, g.ReminderAt = explicit, &r
	case freshDeadline || entered(before, g.ToMove) != nil || g.DeadlineAt == nil:
		d := p.Now(last).UTC().Add(g.TurnDeadline).Truncate(time.Microsecond)
		r := d.Add(-g.ReminderBefore)
		g.DeadlineAt, g.ReminderAt = &d, &r
	}
	if p.Outbox && len(b.TakenBack) == 0 {
		// A take-back sends nothing: the turn goes back to the seat that
		// took its move back, which knows.
		n := len(b.Outbox)
		if err := p.mails(b, beforeStatus, before, timedOut, created, resumed, roundEnd, lines); err != nil {
			return nil, err
		}
		if err := p.noticeMails(b, notice, lines); err != nil {
			return nil, err
		}
		if seatMove && len(timedOut) == 0 {
			for i := n; i < len(b.Outbox); i++ {
				b.Outbox[i].Delay = p.MailGrace
			}
		}
	}
	return b, nil
}

// takeBack handles pbem.takeback: the engine state goes back to the one
// before the move (Rewind), and the move's pending emails are cancelled.
func (p *Projector) takeBack(b *Batch, e events.Event) error {
	var x pbemevent.Takeback
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	if p.Rewind == nil || p.State == nil {
		return fmt.Errorf("projections: %s v%d: a take-back needs the state before the move", e.Stream, e.Version)
	}
	st, err := p.Rewind(x.From)
	if err != nil {
		return fmt.Errorf("projections: %s v%d: rewind to v%d: %w", e.Stream, e.Version, x.From, err)
	}
	p.State = st
	b.TakenBack = append(b.TakenBack, x)
	return nil
}

// create handles pbem.created: the game row and its first state.
func (p *Projector) create(e events.Event) error {
	var c pbemevent.Created
	if err := json.Unmarshal(e.Data, &c); err != nil {
		return fmt.Errorf("projections: pbem.created of %s: %w", e.Stream, err)
	}
	eng, ok := p.Games[c.Game]
	if !ok {
		return fmt.Errorf("projections: game %s: unknown engine %q", e.Stream, c.Game)
	}
	seed, err := pbemevent.DecodeSeed(c.Seed)
	if err != nil {
		return fmt.Errorf("projections: game %s: %w", e.Stream, err)
	}
	st, err := eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language})
	if err != nil {
		return fmt.Errorf("projections: game %s: deal: %w", e.Stream, err)
	}
	turn, err1 := time.ParseDuration(c.TurnDeadline)
	rem, err2 := time.ParseDuration(c.ReminderBefore)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("projections: game %s: bad deadline settings %q/%q", e.Stream, c.TurnDeadline, c.ReminderBefore)
	}
	sh, _ := hex.DecodeString(c.SeedHash)
	key, err := c.CommitKey()
	if err != nil {
		return fmt.Errorf("projections: game %s: %w", e.Stream, err)
	}
	g := p.Game
	g.CommitKey = key
	g.ID = e.Stream
	g.Game = c.Game
	g.RulesVersion = c.RulesVersion
	g.Language = c.Language
	g.Options = c.Options
	g.Players = c.Players
	g.Status = StatusActive
	g.SeedHash = sh
	g.CreatedAt = e.RecordedAt.UTC()
	g.TurnDeadline = turn
	g.ReminderBefore = rem
	g.TimeoutPolicy = c.TimeoutPolicy
	g.createdBots(&c)
	p.Engine, p.State = eng, st
	return nil
}

// reseat handles pbem.email_changed and pbem.player_replaced: the seat's
// new token generation (and name), and the email that lets its holder in
// (a new link, or an invitation for a new player). The seat's address is
// primary data: the service sets it on the row before the append.
func (p *Projector) reseat(b *Batch, e events.Event) error {
	var x pbemevent.PlayerReplaced // pbemevent.EmailChanged's fields are a subset
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	g := p.Game
	s := g.SeatAt(x.Seat)
	if s == nil {
		return fmt.Errorf("projections: %s v%d: no seat %d", e.Stream, e.Version, x.Seat)
	}
	s.TokenGen = x.TokenGen
	kind := outbox.Link
	if e.Type == pbemevent.TypePlayerReplaced {
		g.Players = slices.Clone(g.Players)
		g.Players[x.Seat] = x.Name
		s.Name = x.Name
		kind = outbox.Invitation
	}
	b.Tokens = append(b.Tokens, *s)
	if p.Outbox {
		return p.addMail(b, kind, s, e.Version, nil)
	}
	return nil
}

// mails adds the outbox rows of an append. A timeout notice goes to each
// seat that timed out, in the same transaction as the timeout itself, so a
// crash cannot lose it.
func (p *Projector) mails(b *Batch, beforeStatus string, before, timedOut []int, created, resumed, roundEnd bool, lines mailLines) error {
	g := p.Game
	v := g.Version
	for _, seat := range timedOut {
		if s := g.SeatAt(seat); s != nil {
			if err := p.addMail(b, outbox.Timeout, s, v, lines); err != nil {
				return err
			}
		}
	}
	switch {
	case created:
		for i := range g.Seats {
			if err := p.addMail(b, outbox.Invitation, &g.Seats[i], v, lines); err != nil {
				return err
			}
		}
	case g.Ended() && beforeStatus != g.Status:
		for i := range g.Seats {
			if err := p.addMail(b, outbox.GameOver, &g.Seats[i], v, lines); err != nil {
				return err
			}
		}
		if err := p.formerMails(b, outbox.GameOver, "", lines); err != nil {
			return err
		}
	case g.Status == StatusActive:
		if roundEnd {
			for i := range g.Seats {
				if err := p.addMail(b, outbox.RoundEnd, &g.Seats[i], v, lines); err != nil {
					return err
				}
			}
		}
		awaited := entered(before, g.ToMove)
		if resumed || beforeStatus != StatusActive {
			awaited = g.ToMove
		}
		for _, seat := range awaited {
			if s := g.SeatAt(seat); s != nil {
				if err := p.addMail(b, outbox.YourTurn, s, v, lines); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// addMail adds to b the email of kind to seat s about version.
func (p *Projector) addMail(b *Batch, kind outbox.Kind, s *Seat, version int64, lines mailLines) error {
	return p.addMailWith(b, kind, s, version, lines, nil)
}

// addMailWith is addMail with a last touch to the payload (nil: none),
// written in the language its reader reads (Game.SeatLanguage). A
// seat without an address (a bot's from the start) gets nothing; a seat a
// bot plays for its person (SeatBot) gets only what a person who played
// is told (BotPlayedKind): never a turn to play.
func (p *Projector) addMailWith(b *Batch, kind outbox.Kind, s *Seat, version int64, lines mailLines, touch func(*outbox.Payload)) error {
	g := p.Game
	if s.Email == "" || (s.Bot != "" && !BotPlayedKind(kind)) {
		return nil // a bot reads no email
	}
	lang := g.SeatLanguage(s.Seat)
	if s.Seat < 0 { // a person who left the game (formerMails)
		lang = cmp.Or(s.Language, g.Language)
	}
	var told []string
	if lines != nil {
		var err error
		if told, err = lines.in(lang); err != nil {
			return err
		}
	}
	m := outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: s.Seat, Name: s.Name, Email: s.Email},
		Language: lang,
		Game:     outbox.GameInfo{ID: g.ID, Name: g.Game, Players: g.Players, Bots: g.Bots()},
		TokenGen: s.TokenGen,
		Version:  version,
		Deadline: g.DeadlineAt,
		Lines:    told,
	})
	if g.Result != nil {
		for _, r := range Rankings(g.Result, g.Players) {
			m.Ranking = append(m.Ranking, outbox.Rank{Seat: r.Seat, Name: r.Name, Place: r.Place, Score: r.Score})
		}
		m.Summary = ResultSummary(g.Result, g.Players, lang)
	}
	if g.Status == StatusAborted {
		m.Summary = DescribeService(pbemevent.TypeAborted, nil, g.Players, lang)
	}
	if g.Status == StatusActive && p.State != nil && s.Bot == "" && s.Seat >= 0 {
		m.Awaited = slices.Contains(g.ToMove, s.Seat)
		legal := speak(g, p.State, lang).Legal(s.Seat)
		m.Moves, m.Choice = Labels(legal), ChoiceTag(legal)
	}
	if touch != nil {
		touch(&m)
	}
	row := outbox.Row{GameID: g.ID, Kind: kind, Payload: m, EventVersion: version}
	if s.Seat >= 0 {
		seat := s.Seat
		row.Seat = &seat
	}
	b.Outbox = append(b.Outbox, row)
	return nil
}

// BotPlayedKind reports whether an email of kind goes to the person of a
// seat a bot plays: the notices (who plays, pauses) and the game's result,
// never a turn, a timeout, a round or table talk.
func BotPlayedKind(kind outbox.Kind) bool { return kind == outbox.Notice || kind == outbox.GameOver }

func (g *Game) SeatAt(n int) *Seat {
	for i := range g.Seats {
		if g.Seats[i].Seat == n {
			return &g.Seats[i]
		}
	}
	return nil
}

// entered lists the seats of after that are not in before.
func entered(before, after []int) []int {
	var out []int
	for _, s := range after {
		if !slices.Contains(before, s) {
			out = append(out, s)
		}
	}
	return out
}

func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// MarshalState is json.Marshal(st) without its second pass over a state
// that marshals itself: encoding/json validates and compacts a
// MarshalJSON's output, which the engines' states (written with
// json.Marshal) already are; the bytes are the same.
func MarshalState(st engine.State) ([]byte, error) {
	if m, ok := st.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(st)
}
