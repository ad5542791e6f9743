package play

import (
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// maxForced bounds the forced steps one append plays: a chain longer than
// that is an engine's bug, not a game.
const maxForced = 200

// withForced adds to p the forced steps its engine events lead to: while
// a seat awaited in the state after them has a forced move
// (engine.State.Forced: its only legal move, and one the whole table can
// tell is its only one), that move is decided and its events appended in
// the same append, as actor "forced:N" (pbemevent.ForcedActor) with the
// request id of p's last event. So a forced step is never asked of
// anyone: no your-turn email, reminder or deadline waits on it (the
// projector sees the state after the whole chain), and a bot, a reply or
// the scheduler that moves next finds it played. An append with no engine
// event (chat, an organiser's action, a pause) and a take-back (which
// restores a state where its seat had a choice) are left as they are.
//
// A move followed by a forced step cannot be taken back (the step is not
// its seat's move: TakebackMove refuses what another actor did after it).
func (s *Service) withForced(p *pending) error {
	if p.st == nil || p.rewind != nil || !hasEngineEvent(p.decoded) {
		return nil
	}
	work := p.st.Clone()
	for _, e := range p.decoded {
		if e != nil {
			work.Apply(e)
		}
	}
	for n := 0; ; n++ {
		seat, mv := nextForced(work)
		if mv == nil {
			return nil
		}
		if n == maxForced {
			return fmt.Errorf("play: game %s: more than %d forced steps in a row", p.g.ID, maxForced)
		}
		out, err := work.Decide(seat, mv)
		if err != nil || len(out) == 0 {
			return fmt.Errorf("play: game %s: forced move of seat %d: %v (%d events)", p.g.ID, seat, err, len(out))
		}
		for _, e := range out {
			work.Apply(e)
		}
		meta := events.Metadata{Actor: pbemevent.ForcedActor(seat), RequestID: p.evs[len(p.evs)-1].Meta.RequestID}
		enc, err := newEvents(out, meta)
		if err != nil {
			return err
		}
		p.evs = append(p.evs, enc...)
		p.decoded = append(p.decoded, out...)
	}
}

// nextForced is the first awaited seat of st with a forced move, and that
// move (nil when none has one).
func nextForced(st engine.State) (int, engine.Move) {
	for _, seat := range st.ToMove() {
		if mv := st.Forced(seat); mv != nil {
			return seat, mv
		}
	}
	return 0, nil
}

// hasEngineEvent reports whether decoded holds an engine event (service
// events are nil there).
func hasEngineEvent(decoded []engine.Event) bool {
	for _, e := range decoded {
		if e != nil {
			return true
		}
	}
	return false
}

// leadsToForced reports whether the events evs, decided in st (which it
// leaves alone), lead to a forced step: the move cannot then be taken
// back, and the play page asks for a confirmation before it.
func leadsToForced(st engine.State, evs []engine.Event) bool {
	_, mv := nextForced(applied(st, evs))
	return mv != nil
}

// applied is a copy of st with the events evs applied (st is left alone).
func applied(st engine.State, evs []engine.Event) engine.State {
	after := st.Clone()
	for _, e := range evs {
		after.Apply(e)
	}
	return after
}

// endsTurn reports whether seat's turn is over in st, the state after its
// move: it is no longer awaited, or its own forced steps (played at once,
// withForced) leave it not awaited. st is played on.
func endsTurn(st engine.State, seat int) bool {
	for n := 0; n < maxForced; n++ {
		if !slices.Contains(st.ToMove(), seat) {
			return true
		}
		mv := st.Forced(seat)
		if mv == nil {
			return false
		}
		out, err := st.Decide(seat, mv)
		if err != nil || len(out) == 0 {
			return false
		}
		for _, e := range out {
			st.Apply(e)
		}
	}
	return false
}
