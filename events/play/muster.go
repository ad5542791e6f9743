package play

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// The muster before the first turn (issue #46; the events are in
// events/pbemevent/muster.go). A game created with CreateGame.Muster
// waits, status projections.StatusMuster, for the person of each seat to
// accept (the game page's button, or a reply "yes") or decline. The
// answers are events of the game's stream and nothing else: who answered
// is read back from the stream (musterOf), so a rebuild and verify see
// exactly what the live game did. The organiser may, meanwhile, hand a
// seat to a bot or give it to another person (who must accept in turn):
// their choice per seat. The answer that completes the muster (every
// person's seat accepted, declined or handed to a bot) begins the game in
// the same append; at the muster deadline the scheduler (Timeout) ends it
// for the seats still silent. Either way a seat that declined or never
// answered gets the game's muster default: a bot (the normal level), or
// the game is aborted.

// Muster answers.
const (
	AnswerNone     = ""
	AnswerAccepted = "accepted"
	AnswerDeclined = "declined"
	// AnswerBot: a bot plays the seat (from the start, or the organiser's
	// choice during the muster): nobody need answer for it.
	AnswerBot = "bot"
)

// MaxMuster is the longest muster a game may ask for.
const MaxMuster = 14 * 24 * time.Hour

// Muster is the muster of a game as its pages show it.
type Muster struct {
	// Until is the muster's deadline.
	Until time.Time
	// Default is what a declined or silent seat gets at the end
	// (pbemevent.MusterBot or MusterAbort).
	Default string
	// Answers holds, by seat, the seat's answer (Answer*).
	Answers []string
}

// Complete reports whether every seat has answered.
func (m *Muster) Complete() bool {
	for _, a := range m.Answers {
		if a == AnswerNone {
			return false
		}
	}
	return true
}

// MusterOf returns the muster of game id while the game waits for it.
// Errors: events.CodeNotFound, events.CodeConflict when the game is not
// mustering.
func (s *Service) MusterOf(ctx context.Context, id string) (*Muster, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.musterOf(ctx, g)
}

// musterOf reads g's muster from its stream: the created event's settings,
// then each answer, replacement (the new person answers afresh) and
// hand-off to a bot. Errors: events.CodeConflict when g is not mustering.
func (s *Service) musterOf(ctx context.Context, g *projections.Game) (*Muster, error) {
	if g.Status != projections.StatusMuster {
		return nil, events.Errorf(events.CodeConflict, "the game is not waiting for its players to accept (it is %s)", g.Status)
	}
	evs, err := s.store.ReadStream(ctx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	c, _, err := pbemevent.Opening(evs)
	if err != nil {
		return nil, err
	}
	d, err := time.ParseDuration(c.Muster)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: muster %q: %w", g.ID, c.Muster, err)
	}
	m := &Muster{Until: evs[0].RecordedAt.UTC().Add(d).Truncate(time.Microsecond), Default: c.MusterDefault,
		Answers: make([]string, len(c.Players))}
	for i := range m.Answers {
		if i < len(c.Bots) && c.Bots[i] != "" {
			m.Answers[i] = AnswerBot
		}
	}
	for _, e := range evs[1:] {
		seat, answer, ok := musterAnswer(e)
		if ok && seat >= 0 && seat < len(m.Answers) {
			m.Answers[seat] = answer
		}
	}
	return m, nil
}

// musterAnswer reads what event e says of a seat's muster answer: its
// seat and answer, ok false when it says nothing.
func musterAnswer(e events.Event) (seat int, answer string, ok bool) {
	switch e.Type {
	case pbemevent.TypeAccepted:
		var x pbemevent.Accepted
		ok = json.Unmarshal(e.Data, &x) == nil
		return x.Seat, AnswerAccepted, ok
	case pbemevent.TypeDeclined:
		var x pbemevent.Declined
		ok = json.Unmarshal(e.Data, &x) == nil
		return x.Seat, AnswerDeclined, ok
	case pbemevent.TypePlayerReplaced:
		var x pbemevent.PlayerReplaced
		ok = json.Unmarshal(e.Data, &x) == nil
		return x.Seat, AnswerNone, ok
	case pbemevent.TypeSeatBot:
		var x pbemevent.SeatBot
		ok = json.Unmarshal(e.Data, &x) == nil
		if x.Bot == "" {
			// Handed back by the organiser: their choice, taken as the
			// person's yes.
			return x.Seat, AnswerAccepted, ok
		}
		return x.Seat, AnswerBot, ok
	}
	return 0, "", false
}

// Answer records the muster answer of the person of the seat token opens
// (the game page's buttons; yes: they will play). Errors: as AnswerAs, and
// events.CodeUnauthorized.
func (s *Service) Answer(ctx context.Context, id, token string, yes bool, requestID string) error {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return err
	}
	return s.answer(ctx, g, seat, yes, pbemevent.ByPage, events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: requestID})
}

// AnswerAs records the muster answer of seat read from an email (yes:
// accepted, else declined), for callers that authenticated the player
// otherwise; key is the message's key (events.EmailRequestID). Errors:
// events.CodeNotFound, events.CodeConflict when the game is not mustering
// or a bot plays the seat.
func (s *Service) AnswerAs(ctx context.Context, id string, seat int, yes bool, key string) error {
	g, err := s.game(ctx, id)
	if err != nil {
		return err
	}
	if g.SeatAt(seat) == nil {
		return events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	return s.answer(ctx, g, seat, yes, pbemevent.ByReply, events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: events.EmailRequestID(key)})
}

// answer appends seat's answer to g's muster (nothing when it gives the
// same answer again), and the muster's end when it completes it; it reads
// the game again and retries when another append wins the version.
func (s *Service) answer(ctx context.Context, g *projections.Game, seat int, yes bool, by string, meta events.Metadata) error {
	for try := 0; ; try++ {
		m, err := s.musterOf(ctx, g)
		if err != nil {
			if ErrorCode(err) == events.CodeConflict {
				return events.Errorf(events.CodeConflict, "the game has already begun: there is nothing to accept")
			}
			return err
		}
		want, typ, data := AnswerDeclined, pbemevent.TypeDeclined, any(pbemevent.Declined{Seat: seat, By: by})
		if yes {
			want, typ, data = AnswerAccepted, pbemevent.TypeAccepted, pbemevent.Accepted{Seat: seat, By: by}
		}
		switch m.Answers[seat] {
		case want:
			return nil
		case AnswerBot:
			return events.Errorf(events.CodeConflict, "a bot plays seat %d", seat)
		}
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		m.Answers[seat] = want
		evs := []events.NewEvent{{Type: typ, Data: b, Meta: meta}}
		if m.Complete() {
			end, err := musterEnd(m, "all", meta)
			if err != nil {
				return err
			}
			evs = append(evs, end...)
		}
		_, st, err := s.state(ctx, g)
		if err != nil {
			return err
		}
		_, _, _, err = s.append(ctx, g, st, evs, make([]engine.Event, len(evs)), nil)
		if err == nil || ErrorCode(err) != events.CodeConflict || try == 4 {
			return err
		}
		if g, err = s.load(ctx, g.ID); err != nil {
			return err
		}
	}
}

// musterEnd are the events that end muster m (by "all" or "deadline"):
// each seat that declined or never answered gets the default (a
// pbem.seat_bot to the normal bot each, or the game's pbem.aborted), and
// pbem.mustered begins the game (before an abort, which then ends it).
func musterEnd(m *Muster, by string, meta events.Metadata) ([]events.NewEvent, error) {
	x := pbemevent.Mustered{By: by, Default: m.Default}
	for seat, a := range m.Answers {
		switch a {
		case AnswerNone:
			x.Silent = append(x.Silent, seat)
		case AnswerDeclined:
			x.Declined = append(x.Declined, seat)
		}
	}
	var out []events.NewEvent
	add := func(typ string, v any) error {
		b, err := json.Marshal(v)
		out = append(out, events.NewEvent{Type: typ, Data: b, Meta: meta})
		return err
	}
	missing := len(x.Silent) + len(x.Declined)
	if missing > 0 && m.Default == pbemevent.MusterAbort {
		if err := add(pbemevent.TypeMustered, x); err != nil {
			return nil, err
		}
		return out, add(pbemevent.TypeAborted, pbemevent.Aborted{})
	}
	for seat, a := range m.Answers {
		if a == AnswerNone || a == AnswerDeclined {
			if err := add(pbemevent.TypeSeatBot, pbemevent.SeatBot{Seat: seat, Bot: pbemevent.MusterBotLevel}); err != nil {
				return nil, err
			}
		}
	}
	return out, add(pbemevent.TypeMustered, x)
}

// musterDeadline ends g's muster at its deadline (the scheduler's Timeout
// of a mustering game), as actor "system", and reports whether it did.
func (s *Service) musterDeadline(ctx context.Context, g *projections.Game, now time.Time) (bool, error) {
	if g.DeadlineAt == nil || g.DeadlineAt.After(now) {
		return false, nil
	}
	m, err := s.musterOf(ctx, g)
	if err != nil {
		return false, err
	}
	evs, err := musterEnd(m, "deadline", events.Metadata{Actor: "system"})
	if err != nil {
		return false, err
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return false, err
	}
	_, _, _, err = s.append(ctx, g, st, evs, make([]engine.Event, len(evs)), nil)
	if ErrorCode(err) == events.CodeConflict {
		return false, nil // an answer came meanwhile: the next tick looks again
	}
	return err == nil, err
}

// musterHandOff appends the organiser's hand-off of a seat to a bot (or
// back) during g's muster, with the muster's end when it completes it.
func (s *Service) musterHandOff(ctx context.Context, g *projections.Game, ev pbemevent.SeatBot) (*Summary, error) {
	m, err := s.musterOf(ctx, g)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	meta := events.Metadata{Actor: "admin"}
	evs := []events.NewEvent{{Type: pbemevent.TypeSeatBot, Data: b, Meta: meta}}
	if _, answer, _ := musterAnswer(events.Event{Type: pbemevent.TypeSeatBot, Data: b}); ev.Seat < len(m.Answers) {
		m.Answers[ev.Seat] = answer
	}
	if m.Complete() {
		end, err := musterEnd(m, "all", meta)
		if err != nil {
			return nil, err
		}
		evs = append(evs, end...)
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	ng, _, _, err := s.append(ctx, g, st, evs, make([]engine.Event, len(evs)), nil)
	if err != nil {
		return nil, err
	}
	return summarize(ng), nil
}
