package projections

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"pbem/events/pbemevent"
	"slices"
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
	// Outbox are the emails to write to the outbox now; Turns the
	// your-turn emails with a grace, which the game row owes by what
	// identifies them (Change.Turns, owedByRow).
	Outbox []outbox.Row
	Turns  []outbox.Turn
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
// The fold only folds; what the append owes the players (emails, notices,
// the turn deadline) is Owed's to decide, and Apply writes it: the
// deadline on the game row, the emails as the Batch's outbox rows and
// its turns (live only).
func (p *Projector) Apply(appended []events.Event, decoded []engine.Event) (*Batch, error) {
	b := &Batch{}
	g := p.Game
	before := g.Clone()
	evs := make([]engine.Event, len(appended))
	for i, e := range appended {
		var ev engine.Event
		if i < len(decoded) {
			ev = decoded[i]
		}
		ev, err := p.fold(b, e, ev)
		if err != nil {
			return nil, err
		}
		evs[i] = ev
		g.Version = e.Version
		g.UpdatedAt = e.RecordedAt.UTC()
	}
	if p.State == nil {
		return nil, fmt.Errorf("projections: no pbem.created event")
	}
	if err := p.settle(appended, len(b.TakenBack) > 0); err != nil {
		return nil, err
	}
	a := Append{Before: before, Events: appended, Decoded: evs, After: g, Engine: p.Engine,
		Now: p.Now(last(appended)), Grace: p.MailGrace}
	eff, err := Owed(a)
	if err != nil {
		return nil, err
	}
	g.DeadlineAt, g.ReminderAt = eff.Deadline, eff.Reminder
	if p.Outbox {
		var now []Mail
		for _, m := range eff.Mails {
			if owedByRow(m) {
				b.Turns = append(b.Turns, outbox.Turn{Seat: m.To.Seat, Version: m.Version,
					From: before.Version + 1, DelayUS: m.Delay.Microseconds()})
			} else {
				now = append(now, m)
			}
		}
		rows, err := p.rows(a, now)
		if err != nil {
			return nil, err
		}
		b.Outbox = rows
	}
	return b, nil
}

// fold folds one event e (ev: its engine event, if decoded already) and
// returns its engine event (nil for a service event).
func (p *Projector) fold(b *Batch, e events.Event, ev engine.Event) (engine.Event, error) {
	if pbemevent.IsServiceEvent(e.Type) {
		return nil, p.foldService(b, e)
	}
	if p.State == nil {
		return nil, fmt.Errorf("projections: %s v%d: engine event before pbem.created", e.Stream, e.Version)
	}
	if ev == nil {
		var err error
		if ev, err = pbemevent.Decode(p.Engine, e); err != nil {
			return nil, err
		}
	}
	p.State.Apply(ev)
	return ev, nil
}

// foldService folds service event e: what it changes of the game row,
// its seats and the Batch.
func (p *Projector) foldService(b *Batch, e events.Event) error {
	g := p.Game
	switch e.Type {
	case pbemevent.TypeCreated:
		return p.create(e)
	case pbemevent.TypePaused:
		g.Status = StatusPaused
	case pbemevent.TypeResumed, pbemevent.TypeMustered:
		g.Status = StatusActive
	case pbemevent.TypeExtended:
		g.Extensions++
	case pbemevent.TypeAborted:
		g.Status = StatusAborted
	case pbemevent.TypeEmailChanged, pbemevent.TypePlayerReplaced:
		return p.reseat(b, e)
	case pbemevent.TypeSeatBot:
		return p.seatBot(b, e)
	case pbemevent.TypeLanguage:
		return p.language(b, e)
	case pbemevent.TypeAway:
		return p.away(b, e)
	case pbemevent.TypeBack:
		return p.back(b, e)
	case pbemevent.TypeTakeback:
		return p.takeBack(b, e)
	case pbemevent.TypeAdminLinkRevoked:
		b.AdminToken = true
	case pbemevent.TypeLinkResent:
		var l pbemevent.LinkResent
		if err := json.Unmarshal(e.Data, &l); err != nil {
			return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
		}
		if s := g.SeatAt(l.Seat); s != nil {
			s.TokenGen = l.TokenGen
			b.Tokens = append(b.Tokens, *s)
		}
	}
	return nil
}

// settle folds what the events decide together: the seats awaited, the
// result and end of the game, and the state snapshot (always stored after
// a take-back: its state is not the previous one plus events, so no
// snapshot ever precedes a take-back).
func (p *Projector) settle(appended []events.Event, tookBack bool) error {
	g := p.Game
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
			t := ending(appended).RecordedAt.UTC()
			g.FinishedAt = &t
		}
	}
	if g.SnapshotDue() || tookBack {
		// The repository stores State with this Change. Between snapshots
		// the state is not encoded at all: State keeps the last
		// snapshot's bytes.
		state, err := MarshalState(p.State)
		if err != nil {
			return fmt.Errorf("projections: marshal state of %s: %w", g.ID, err)
		}
		g.State, g.StateVersion = state, g.Version
	}
	return nil
}

// ending is the last of appended that may have ended the game: an engine
// event or an abort (else the last event). The service events an ended
// game still takes (a rematch) come after it, and must not move its end.
func ending(appended []events.Event) events.Event {
	for i := len(appended) - 1; i >= 0; i-- {
		if t := appended[i].Type; !pbemevent.IsServiceEvent(t) || t == pbemevent.TypeAborted {
			return appended[i]
		}
	}
	return last(appended)
}

// last is the last of appended (none: the zero event).
func last(appended []events.Event) events.Event {
	if len(appended) == 0 {
		return events.Event{}
	}
	return appended[len(appended)-1]
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
	st, err := eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language, Rules: c.RulesVersion})
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
	if c.Muster != "" {
		g.Status = StatusMuster
	}
	g.SeedHash = sh
	g.CreatedAt = e.RecordedAt.UTC()
	g.TurnDeadline = turn
	g.ReminderBefore = rem
	g.TimeoutPolicy = c.TimeoutPolicy
	g.AwayPolicy = AwayPolicyOf(&c)
	g.createdBots(&c)
	for i := range g.Seats { // a rebuild starts from the live seats
		g.Seats[i].Away, g.Seats[i].AwayPast = nil, nil
	}
	p.Engine, p.State = eng, st
	return nil
}

// reseat handles pbem.email_changed and pbem.player_replaced: the seat's
// new token generation (and name). The seat's address is primary data:
// the service sets it on the row before the append. (The email that lets
// its holder in is Owed's.)
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
	if e.Type == pbemevent.TypePlayerReplaced {
		g.Players = slices.Clone(g.Players)
		g.Players[x.Seat] = x.Name
		s.Name = x.Name
	}
	b.Tokens = append(b.Tokens, *s)
	return nil
}

// SeatAt returns g's seat n, or nil when g has none.
func (g *Game) SeatAt(n int) *Seat {
	for i := range g.Seats {
		if g.Seats[i].Seat == n {
			return &g.Seats[i]
		}
	}
	return nil
}

// NonNil returns s, or an empty slice for nil (a JSON list, never null).
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
