package projections

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"pbem/events"
	"pbem/events/pbemevent"
)

// Away (issue #43 part 8). A person says they are away until a date; each
// of their games records, in its own stream, what that does to their
// seat there (pbem.away) and when it ends (pbem.back), so that the game
// row, the history every seat reads, the records and a rebuild all come
// from the events. The seat keeps the away going on (Seat.Away) and the
// ones that ended (Seat.AwayPast), from which the person's allowance is
// counted across their games (the same From in each game is one away).
//
// Under the policy "wait" the game's deadline waits: a deadline running
// when the away begins is moved by the time until WaitUntil (the seat
// keeps the time it had left, from then), a turn that begins while the
// seat is away gets its full time from WaitUntil, and a person back
// before WaitUntil gets the time they had left from the moment they are
// back (not a fresh turn: the other seats waited for them already).

// SeatAway is the away of a seat's person going on in a game.
type SeatAway struct {
	From   time.Time `json:"from"`
	Until  time.Time `json:"until"`
	Effect string    `json:"effect"`
	// WaitUntil is when the game's deadlines stop waiting for the seat
	// (Effect pbemevent.AwayWait).
	WaitUntil *time.Time `json:"wait_until,omitempty"`
	// Handed: the away handed the seat to a bot, to hand back at its end.
	Handed bool `json:"handed,omitempty"`
}

// AwayPeriod is an away that ended: from From to To.
type AwayPeriod struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// seatAwayJSON is how a seat's away is stored (column seats.away).
type seatAwayJSON struct {
	Now  *SeatAway    `json:"now,omitempty"`
	Past []AwayPeriod `json:"past,omitempty"`
}

// AwayText is the seats.away column of s: "" when its person was never
// away in the game.
func (s *Seat) AwayText() (string, error) {
	if s.Away == nil && len(s.AwayPast) == 0 {
		return "", nil
	}
	b, err := json.Marshal(seatAwayJSON{Now: s.Away, Past: s.AwayPast})
	return string(b), err
}

// SetAwayText sets s's away from its stored column.
func (s *Seat) SetAwayText(text string) error {
	s.Away, s.AwayPast = nil, nil
	if text == "" {
		return nil
	}
	var x seatAwayJSON
	if err := json.Unmarshal([]byte(text), &x); err != nil {
		return fmt.Errorf("projections: away of seat %d: %w", s.Seat, err)
	}
	s.Away, s.AwayPast = x.Now, x.Past
	return nil
}

// AwayUntil is when the seat's away ends (nil: its person is not away).
func (s *Seat) AwayUntil() *time.Time {
	if s.Away == nil {
		return nil
	}
	return &s.Away.Until
}

// awayWait is the latest WaitUntil after now of g's awaited seats whose
// away makes the deadline wait (nil: none does).
func (g *Game) awayWait(now time.Time) *time.Time {
	var out *time.Time
	for _, n := range g.ToMove {
		s := g.SeatAt(n)
		if s == nil || s.Away == nil || s.Away.WaitUntil == nil || !s.Away.WaitUntil.After(now) {
			continue
		}
		if out == nil || s.Away.WaitUntil.After(*out) {
			out = s.Away.WaitUntil
		}
	}
	return out
}

// away folds pbem.away: the seat's away begins.
func (p *Projector) away(b *Batch, e events.Event) error {
	var x pbemevent.Away
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	s := p.Game.SeatAt(x.Seat)
	if s == nil {
		return fmt.Errorf("projections: %s v%d: no seat %d", e.Stream, e.Version, x.Seat)
	}
	a := SeatAway{From: x.From.UTC(), Until: x.Until.UTC(), Effect: x.Effect, Handed: x.Handed}
	if x.WaitUntil != nil {
		a.WaitUntil = new(x.WaitUntil.UTC())
	}
	s.Away = &a
	b.Tokens = append(b.Tokens, *s)
	return nil
}

// back folds pbem.back: the seat's away ends, at its At or its Until if
// sooner, and joins the seat's past aways.
func (p *Projector) back(b *Batch, e events.Event) error {
	var x pbemevent.Back
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	s := p.Game.SeatAt(x.Seat)
	if s == nil {
		return fmt.Errorf("projections: %s v%d: no seat %d", e.Stream, e.Version, x.Seat)
	}
	if s.Away == nil || !s.Away.From.Equal(x.From) {
		return nil
	}
	end := x.At.UTC().Truncate(time.Microsecond)
	if end.IsZero() || end.Before(s.Away.From) {
		end = s.Away.From
	}
	if s.Away.Until.Before(end) {
		end = s.Away.Until
	}
	s.AwayPast = append(slices.Clip(s.AwayPast), AwayPeriod{From: s.Away.From, To: end})
	s.Away = nil
	b.Tokens = append(b.Tokens, *s)
	return nil
}

// awayFacts are the aways and backs of an append, for its deadline.
type awayFacts struct {
	aways []pbemevent.Away
	backs []pbemevent.Back
}

// read reads pbem.away or pbem.back e (other events: nothing).
func (f *awayFacts) read(e events.Event) error {
	switch e.Type {
	case pbemevent.TypeAway:
		var x pbemevent.Away
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return err
		}
		f.aways = append(f.aways, x)
	case pbemevent.TypeBack:
		var x pbemevent.Back
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return err
		}
		f.backs = append(f.backs, x)
	}
	return nil
}

// shift is the deadline d of a (not a fresh one) as a's backs and aways,
// in that order (a new away ends the one going on first), move it: an
// awaited seat back before its WaitUntil, with no other awaited seat
// still waited for, moves it back by the time it did not use; an awaited
// seat going away under "wait" moves it by the time until its WaitUntil.
func (f *awayFacts) shift(a Append, d time.Time) time.Time {
	now := a.Now.UTC()
	for _, x := range f.backs {
		s := a.Before.SeatAt(x.Seat)
		if s == nil || s.Away == nil || s.Away.WaitUntil == nil || !s.Away.WaitUntil.After(now) ||
			!slices.Contains(a.After.ToMove, x.Seat) || f.othersWait(a.Before, x.Seat, now) {
			continue
		}
		d = d.Add(-s.Away.WaitUntil.Sub(now))
	}
	if d.Before(now) {
		d = now
	}
	for _, x := range f.aways {
		if x.WaitUntil == nil || !x.WaitUntil.After(now) || !slices.Contains(a.After.ToMove, x.Seat) {
			continue
		}
		d = d.Add(x.WaitUntil.Sub(now))
	}
	return d.Truncate(time.Microsecond)
}

// othersWait reports whether an awaited seat of g other than seat, and
// not back in this append, is waited for at now.
func (f *awayFacts) othersWait(g *Game, seat int, now time.Time) bool {
	for _, n := range g.ToMove {
		s := g.SeatAt(n)
		if n == seat || s == nil || s.Away == nil || s.Away.WaitUntil == nil || !s.Away.WaitUntil.After(now) {
			continue
		}
		if !slices.ContainsFunc(f.backs, func(b pbemevent.Back) bool { return b.Seat == n }) {
			return true
		}
	}
	return false
}

// AwayPolicyOf is the away policy pbem.created c sets (absent: "wait").
func AwayPolicyOf(c *pbemevent.Created) string {
	if c.AwayPolicy == "" {
		return pbemevent.AwayWait
	}
	return c.AwayPolicy
}
