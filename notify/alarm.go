package notify

import (
	"sync"
	"time"
)

// Workers that sleep when nothing is due (issue #45, part 4). An append
// wakes the worker (WorkerConfig.Wake) whatever it wrote, and each wake-up
// cost a claim query that mostly found nothing: a move's your-turn email
// waits the mail grace (two minutes by default), so the appends of a busy
// server woke the worker hundreds of times a second for work due minutes
// later. With Due, the appends of this process tell the worker when what
// they wrote is due instead: the worker keeps the earliest such time in
// memory (alarm) and claims when it comes, not before. An append that owes
// nothing before it costs no query.
//
// What the alarm does not know (another serve process's appends, a retry's
// backoff, a lease that ran out) the worker finds by polling
// (WorkerConfig.Poll): a missed or lost wake-up only delays an email, by
// at most the poll interval. Several processes stay correct because the
// claim itself (FOR UPDATE SKIP LOCKED, leases) decides who sends what;
// the alarm only decides when to look.

// alarm is the earliest due time a Worker was told of and has not looked
// for yet.
type alarm struct {
	mu   sync.Mutex
	next time.Time // zero: none
	// set is signalled when next moves earlier.
	set chan struct{}
}

func newAlarm() *alarm { return &alarm{set: make(chan struct{}, 1)} }

// at records that something is due at t.
func (a *alarm) at(t time.Time) {
	a.mu.Lock()
	earlier := a.next.IsZero() || t.Before(a.next)
	if earlier {
		a.next = t
	}
	a.mu.Unlock()
	if earlier {
		select {
		case a.set <- struct{}{}:
		default:
		}
	}
}

// due reports whether the alarm's time has come at now (clearing it) and,
// if not, how long until it does (0: no alarm set).
func (a *alarm) due(now time.Time) (ring bool, wait time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.next.IsZero():
		return false, 0
	case !a.next.After(now):
		a.next = time.Time{}
		return true, 0
	}
	return false, a.next.Sub(now)
}

// Due tells the worker that an email its store holds becomes due at t (an
// append of this process wrote it, or a game row owes it): Run claims at
// t, not before. It never blocks.
func (w *Worker) Due(t time.Time) { w.alarm.at(t) }
