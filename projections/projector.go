package projections

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"time"

	"pbem/engine"
	"pbem/events"
)

// projector folds a game's events into its projection rows. The live path
// (an append hook) and rebuild use the same code, so a rebuild equals the
// live tables.
type projector struct {
	games engine.Registry
	eng   engine.Game
	g     *Game
	st    engine.State
	// now is the clock for deadlines: the service clock live, each event's
	// RecordedAt in a rebuild.
	now func(e events.Event) time.Time
	// outbox enables email rows (live only).
	outbox bool
}

// batch is what one append changed, beyond the game row.
type batch struct {
	history []HistoryRow
	outbox  []OutboxRow
	tokens  []Seat
}

// apply folds one append's events. decoded may hold the engine events the
// service just decided (nil entries are decoded from the stored data).
func (p *projector) apply(appended []events.Event, decoded []engine.Event) (*batch, error) {
	b := &batch{}
	g := p.g
	before := slices.Clone(g.ToMove)
	beforeStatus := g.Status
	created, freshDeadline, resumed, roundEnd := false, false, false, false
	var explicit *time.Time // a deadline an event sets
	var timedOut []int      // seats whose deadline passed (pbem.timeout)
	var lines []string
	var last events.Event
	for i, e := range appended {
		last = e
		var ev engine.Event
		if isServiceEvent(e.Type) {
			switch e.Type {
			case TypeCreated:
				if err := p.create(e); err != nil {
					return nil, err
				}
				created, freshDeadline = true, true
			case TypeTimeout:
				var t Timeout
				if err := json.Unmarshal(e.Data, &t); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				timedOut = append(timedOut, t.Seats...)
				freshDeadline = true
			case TypePaused:
				g.Status = StatusPaused
			case TypeResumed:
				var r Resumed
				if err := json.Unmarshal(e.Data, &r); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				g.Status = StatusActive
				resumed = true
				d := r.DeadlineAt.UTC()
				explicit = &d
			case TypeExtended:
				var x Extended
				if err := json.Unmarshal(e.Data, &x); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				g.Extensions++
				d := x.DeadlineAt.UTC()
				explicit = &d
			case TypeAborted:
				g.Status = StatusAborted
			case TypeLinkResent:
				var l LinkResent
				if err := json.Unmarshal(e.Data, &l); err != nil {
					return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
				}
				for j := range g.Seats {
					if g.Seats[j].Seat == l.Seat {
						g.Seats[j].TokenGen = l.TokenGen
						b.tokens = append(b.tokens, g.Seats[j])
					}
				}
				if p.outbox {
					if s := g.seat(l.Seat); s != nil {
						b.outbox = append(b.outbox, p.mail(KindLink, s, e.Version, nil))
					}
				}
			}
		} else {
			if p.st == nil {
				return nil, fmt.Errorf("projections: %s v%d: engine event before pbem.created", e.Stream, e.Version)
			}
			if i < len(decoded) && decoded[i] != nil {
				ev = decoded[i]
			} else {
				var err error
				ev, err = p.eng.DecodeEvent(e.Type, e.Data)
				if err != nil {
					return nil, fmt.Errorf("projections: decode %s v%d (%s): %w", e.Stream, e.Version, e.Type, err)
				}
			}
			p.st.Apply(ev)
			if p.eng.RoundEnd(ev) {
				roundEnd = true
			}
		}
		g.Version = e.Version
		g.UpdatedAt = e.RecordedAt.UTC()
		rows, line, err := p.history(e, ev)
		if err != nil {
			return nil, err
		}
		b.history = append(b.history, rows...)
		lines = append(lines, line)
	}
	if p.st == nil {
		return nil, fmt.Errorf("projections: no pbem.created event")
	}
	state, err := marshalState(p.st)
	if err != nil {
		return nil, fmt.Errorf("projections: marshal state of %s: %w", g.ID, err)
	}
	g.State = state
	g.ToMove = nonNil(p.st.ToMove())
	if g.Status != StatusAborted {
		if r := p.st.Result(); r != nil {
			g.Status = StatusFinished
			g.Result = r
		}
	}
	if g.Ended() {
		g.ToMove = []int{}
		if g.FinishedAt == nil {
			t := last.RecordedAt.UTC()
			g.FinishedAt = &t
		}
	}
	switch {
	case g.Status != StatusActive:
		g.DeadlineAt, g.ReminderAt = nil, nil
	case explicit != nil:
		r := explicit.Add(-g.ReminderBefore)
		g.DeadlineAt, g.ReminderAt = explicit, &r
	case freshDeadline || entered(before, g.ToMove) != nil || g.DeadlineAt == nil:
		d := p.now(last).UTC().Add(g.TurnDeadline).Truncate(time.Microsecond)
		r := d.Add(-g.ReminderBefore)
		g.DeadlineAt, g.ReminderAt = &d, &r
	}
	if p.outbox {
		p.mails(b, beforeStatus, before, timedOut, created, resumed, roundEnd, lines)
	}
	return b, nil
}

// create handles pbem.created: the game row and its first state.
func (p *projector) create(e events.Event) error {
	var c Created
	if err := json.Unmarshal(e.Data, &c); err != nil {
		return fmt.Errorf("projections: pbem.created of %s: %w", e.Stream, err)
	}
	eng, ok := p.games[c.Game]
	if !ok {
		return fmt.Errorf("projections: game %s: unknown engine %q", e.Stream, c.Game)
	}
	seed, err := decodeSeed(c.Seed)
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
	g := p.g
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
	p.eng, p.st = eng, st
	return nil
}

// history computes the rows of one event: the public row, plus a row for
// each seat that sees it differently. It also returns the public line.
func (p *projector) history(e events.Event, ev engine.Event) ([]HistoryRow, string, error) {
	g := p.g
	row := func(seat int, data json.RawMessage, summary string) HistoryRow {
		return HistoryRow{GameID: g.ID, Version: e.Version, Seat: seat, Type: e.Type, Actor: e.Meta.Actor,
			Data: data, Summary: summary, Hash: e.Hash, PrevHash: e.PrevHash, RecordedAt: e.RecordedAt.UTC()}
	}
	if ev == nil {
		data := redactService(e.Type, e.Data)
		line := describeService(e.Type, data, g.Players, g.Language)
		return []HistoryRow{row(engine.Spectator, data, line)}, line, nil
	}
	pub := p.eng.Redact(ev, engine.Spectator)
	pubData, err := json.Marshal(pub)
	if err != nil {
		return nil, "", fmt.Errorf("projections: marshal redacted %s: %w", e.Type, err)
	}
	pubLine := p.eng.Describe(pub, g.Players, g.Language)
	rows := []HistoryRow{row(engine.Spectator, pubData, pubLine)}
	for seat := range g.Players {
		r := p.eng.Redact(ev, seat)
		data, err := json.Marshal(r)
		if err != nil {
			return nil, "", fmt.Errorf("projections: marshal redacted %s: %w", e.Type, err)
		}
		line := p.eng.Describe(r, g.Players, g.Language)
		if !bytes.Equal(data, pubData) || line != pubLine {
			rows = append(rows, row(seat, data, line))
		}
	}
	return rows, pubLine, nil
}

// mails adds the outbox rows of an append. A timeout notice goes to each
// seat that timed out, in the same transaction as the timeout itself, so a
// crash cannot lose it.
func (p *projector) mails(b *batch, beforeStatus string, before, timedOut []int, created, resumed, roundEnd bool, lines []string) {
	g := p.g
	v := g.Version
	for _, seat := range timedOut {
		if s := g.seat(seat); s != nil {
			b.outbox = append(b.outbox, p.mail(KindTimeout, s, v, lines))
		}
	}
	switch {
	case created:
		for i := range g.Seats {
			b.outbox = append(b.outbox, p.mail(KindInvitation, &g.Seats[i], v, lines))
		}
	case g.Ended() && beforeStatus != g.Status:
		for i := range g.Seats {
			b.outbox = append(b.outbox, p.mail(KindGameOver, &g.Seats[i], v, lines))
		}
	case g.Status == StatusActive:
		if roundEnd {
			for i := range g.Seats {
				b.outbox = append(b.outbox, p.mail(KindRoundEnd, &g.Seats[i], v, lines))
			}
		}
		awaited := entered(before, g.ToMove)
		if resumed || beforeStatus != StatusActive {
			awaited = g.ToMove
		}
		for _, seat := range awaited {
			if s := g.seat(seat); s != nil {
				b.outbox = append(b.outbox, p.mail(KindYourTurn, s, v, lines))
			}
		}
	}
}

// Mail is the payload of an outbox row: everything the email renderer needs
// apart from the seat's token, which it derives from the token generation.
type Mail struct {
	To       MailTo    `json:"to"`
	Language string    `json:"language"`
	Game     MailGame  `json:"game"`
	TokenGen int       `json:"token_gen"`
	Version  int64     `json:"version"`
	Deadline *string   `json:"deadline"`
	Lines    []string  `json:"lines"`
	Ranking  []Ranking `json:"ranking,omitempty"`
	Summary  string    `json:"summary,omitempty"`
}

// MailTo is the recipient of a Mail.
type MailTo struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// MailGame names the game of a Mail.
type MailGame struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Players []string `json:"players"`
}

func (p *projector) mail(kind string, s *Seat, version int64, lines []string) OutboxRow {
	g := p.g
	m := Mail{
		To:       MailTo{Seat: s.Seat, Name: s.Name, Email: s.Email},
		Language: g.Language,
		Game:     MailGame{ID: g.ID, Name: g.Game, Players: g.Players},
		TokenGen: s.TokenGen,
		Version:  version,
		Lines:    nonNil(lines),
	}
	if g.DeadlineAt != nil {
		d := g.DeadlineAt.UTC().Format(time.RFC3339)
		m.Deadline = &d
	}
	if g.Result != nil {
		m.Ranking = ranking(g.Result, g.Players)
		m.Summary = resultSummary(g.Result, g.Players, g.Language)
	}
	if g.Status == StatusAborted {
		m.Summary = describeService(TypeAborted, nil, g.Players, g.Language)
	}
	payload, _ := json.Marshal(m)
	seat := s.Seat
	return OutboxRow{GameID: g.ID, Seat: &seat, Kind: kind, Payload: payload, EventVersion: version}
}

func (g *Game) seat(n int) *Seat {
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

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func decodeSeed(s string) (engine.Seed, error) {
	var seed engine.Seed
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("bad seed in pbem.created")
	}
	copy(seed[:], b)
	return seed, nil
}

func seedHash(seed engine.Seed) string {
	h := sha256.Sum256(seed[:])
	return hex.EncodeToString(h[:])
}

// marshalState is json.Marshal(st) without its second pass over a state
// that marshals itself: encoding/json validates and compacts a
// MarshalJSON's output, which the engines' states (written with
// json.Marshal) already are; the bytes are the same.
func marshalState(st engine.State) ([]byte, error) {
	if m, ok := st.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(st)
}
