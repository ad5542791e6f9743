package play

import (
	"context"
	"time"
)

// Time (issue #28). Every seat sees when each event was recorded, to the
// microsecond (the history's recorded_at), and a live page sees when it
// arrives. For a decision the system takes in a seat's stead (a bot's
// move, a timeout's default or bot moves), the time from the game's last
// change to its append is otherwise the time the decision took, and a
// bot's decision takes 3 to 100 ms of CPU depending on its hand and the
// cards it has not seen (the strong bot samples and searches them): a cheat
// who plays against a bot would read its hand's size and shape from the
// clock.
//
// So such a decision is appended on a grid: at the call's start (taken
// before it reads the game) plus a whole number of DecisionPauses, the
// first one the decision has not outlasted (see decisionClock). The
// recorded time is then the call's start, plus the pause, plus the
// append's own latency (the group commit and the database, which do not
// look at the data), and the same whatever the decider held, as long as
// the decision fits in the pause; one that outlasts it (a loaded machine)
// shows only how many pauses it took, not its time. The wait ends just
// before the write, after the engine has decided the move's events, so
// that their time is hidden too. serve sets two seconds
// (PBEM_DECISION_PAUSE), four times the slowest strong bot's decision
// measured on a loaded test machine (450 ms; 40 to 300 ms usually); a
// bot's think time (PBEM_BOT_DELAY) comes before the call and is counted
// from the game's last change, which is public.
//
// Why not date the event with the call's start instead: the live pages
// and the emails would still arrive after the decision, and the stored
// time would no longer be when the store accepted the event. Why not
// coarsen the times seats are shown: every channel that carries a time
// (history, pages, emails, the arrival of a live update) would have to
// round it alike, and an arrival time cannot be rounded.
//
// A person's move is decided by the engine in microseconds, under the
// network's jitter, and the mover's own decision time is theirs: no pause.

// decisionClock is when a system decision began, by the service clock,
// and the service's pause; the zero value appends at once.
type decisionClock struct {
	s     *Service
	start time.Time
	pause time.Duration
}

// decisionStart starts the clock of a system decision that begins now.
func (s *Service) decisionStart() decisionClock {
	if s.pause <= 0 {
		return decisionClock{}
	}
	return decisionClock{s: s, start: s.now(), pause: s.pause}
}

// wait waits (Config.Sleep) until the first point of the clock's grid
// (start plus a whole number, at least one, of pauses) not before now, or
// until ctx ends.
func (c decisionClock) wait(ctx context.Context) error {
	if c.pause <= 0 {
		return nil
	}
	now := c.s.now()
	n := max(1, (now.Sub(c.start)+c.pause-1)/c.pause)
	if d := c.start.Add(n * c.pause).Sub(now); d > 0 {
		return c.s.sleep(ctx, d)
	}
	return nil
}

// sleepTimer is Config.Sleep's default: d on a timer, or until ctx ends.
func sleepTimer(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
