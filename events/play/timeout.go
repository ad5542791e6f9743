package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"pbem/engine"
	"pbem/engine/bot"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// maxDefaultMoves bounds the default moves played for one seat in one
// timeout (a multi-step action is several decisions of the same seat).
const maxDefaultMoves = 50

// Timeout applies the game's timeout policy if its deadline is at or before
// now, and reports whether it did. Under default_move (and skip, which the
// engine contract has no generic notion of and so falls back to
// default_move) every awaited seat plays State.DefaultMove, as actor
// "system", until that seat is no longer awaited; under pause the game is
// paused; under bot the normal bot plays each awaited seat (its moves'
// actor is "bot:normal"), from that seat's view and redacted history. A game that is not active, not yet due, or that moved on while the
// timeout was being decided is left alone (false, nil). Its events are
// appended no earlier than the decision pause after the call began
// (pause.go). Errors: events.CodeNotFound.
func (s *Service) Timeout(ctx context.Context, id string, now time.Time) (bool, error) {
	notBefore := s.decisionStart()
	g, err := s.game(ctx, id)
	if err != nil {
		return false, err
	}
	if g.Status == projections.StatusMuster {
		return s.musterDeadline(ctx, g, now)
	}
	if g.Status != projections.StatusActive || g.DeadlineAt == nil || g.DeadlineAt.After(now) {
		return false, nil
	}
	eng, st, err := s.state(ctx, g)
	if err != nil {
		return false, err
	}
	awaited := slices.Clone(g.ToMove)
	meta := events.Metadata{Actor: "system"}
	tdata, err := json.Marshal(pbemevent.Timeout{Seats: projections.NonNil(awaited), Policy: g.TimeoutPolicy})
	if err != nil {
		return false, err
	}
	evs := []events.NewEvent{{Type: pbemevent.TypeTimeout, Data: tdata, Meta: meta}}
	decoded := []engine.Event{nil}
	if g.TimeoutPolicy == projections.PolicyPause {
		pdata, err := json.Marshal(pbemevent.Paused{By: "timeout"})
		if err != nil {
			return false, err
		}
		evs = append(evs, events.NewEvent{Type: pbemevent.TypePaused, Data: pdata, Meta: meta})
		decoded = append(decoded, nil)
	} else {
		var h *botGame // the bot's knowledge under policy bot
		moveMeta := meta
		if g.TimeoutPolicy == projections.PolicyBot {
			if h, err = s.botHistory(ctx, g, eng); err != nil {
				if ErrorCode(err) == events.CodeConflict {
					return false, nil
				}
				return false, err
			}
			moveMeta.Actor = botActor(bot.Normal)
		}
		work := st.Clone()
		for _, seat := range awaited {
			for range maxDefaultMoves {
				if !slices.Contains(work.ToMove(), seat) {
					break
				}
				var mv engine.Move
				if h != nil {
					if mv, err = h.choose(eng, work, bot.Normal, seat, g.Version+int64(len(evs))); err != nil {
						return false, err
					}
				} else {
					mv = work.DefaultMove(seat)
				}
				if mv == nil {
					break
				}
				out, err := work.Decide(seat, mv)
				if err != nil || len(out) == 0 {
					return false, fmt.Errorf("play: %s's default move for seat %d: %v", eng.Name(), seat, err)
				}
				for _, e := range out {
					work.Apply(e)
				}
				if h != nil {
					h.events = append(h.events, out...)
				}
				enc, err := newEvents(out, moveMeta)
				if err != nil {
					return false, err
				}
				evs = append(evs, enc...)
				decoded = append(decoded, out...)
			}
		}
	}
	if _, _, _, err := s.appendPending(ctx, &pending{g: g, st: st, evs: evs, decoded: decoded, notBefore: notBefore}); err != nil {
		if ErrorCode(err) == events.CodeConflict {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
