package notify

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Timeouter applies a game's timeout policy when its deadline has passed
// (play.(*Service) implements it). It reports whether it acted: false
// when the game is not due or moved on meanwhile, so calling it twice for
// one deadline (two serve processes) records one timeout.
type Timeouter interface {
	Timeout(ctx context.Context, gameID string, now time.Time) (bool, error)
}

// DueGame is a game whose deadline has passed.
type DueGame struct {
	ID      string
	Version int64
	// ToMove are the seats awaited when the deadline passed.
	ToMove []int
}

// DeadlineStore is the scheduler's view of the games table
// (notify/postgres.Deadlines implements it).
type DeadlineStore interface {
	// DueDeadlines lists up to limit active games whose deadline is at or
	// before now, oldest first, skipping games another scheduler holds.
	DueDeadlines(ctx context.Context, now time.Time, limit int) ([]DueGame, error)
	// Remind writes, in one transaction, one reminder row per awaited seat
	// of each active game whose reminder time has passed and which was not
	// reminded for its current deadline, and marks those games reminded. It
	// returns how many games it reminded.
	Remind(ctx context.Context, now time.Time, limit int) (int, error)
	// Digests writes the daily digest rows due at now (one per address with
	// the digest preference and games waiting, once per UTC day, from hour
	// o'clock UTC on) and returns how many it wrote.
	Digests(ctx context.Context, now time.Time, hour int) (int, error)
}

// SchedulerConfig configures a Scheduler. Store and Timeouter are required.
type SchedulerConfig struct {
	Store     DeadlineStore
	Timeouter Timeouter
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Interval is the wait between ticks (default 15 seconds).
	Interval time.Duration
	// Batch bounds the games handled per tick and kind (default 100).
	Batch int
	// DigestHour is the UTC hour (1 to 23) from which daily digests go out;
	// 0 means 7.
	DigestHour int
	// Logger; nil: slog.Default().
	Logger *slog.Logger
}

// Scheduler enforces turn deadlines: it times out due games through the
// game service (which records the timeout as events and, in the same
// transaction, writes the timeout notices and the next player's email),
// sends reminders before deadlines, and the daily digests.
//
// Several serve processes may run a Scheduler: due games are listed with
// FOR UPDATE SKIP LOCKED, and a game timed out twice is harmless because
// the service appends at the game's version (the second append conflicts
// and reports false).
type Scheduler struct{ c SchedulerConfig }

// NewScheduler checks c and fills in defaults.
func NewScheduler(c SchedulerConfig) (*Scheduler, error) {
	if c.Store == nil || c.Timeouter == nil {
		return nil, errors.New("notify: scheduler needs a store and a timeouter")
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Interval <= 0 {
		c.Interval = 15 * time.Second
	}
	if c.Batch <= 0 {
		c.Batch = 100
	}
	if c.DigestHour < 0 || c.DigestHour > 23 {
		return nil, errors.New("notify: scheduler: digest hour must be 0 to 23")
	}
	if c.DigestHour == 0 {
		c.DigestHour = 7
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Scheduler{c: c}, nil
}

// Run ticks until ctx ends and returns ctx's error.
func (s *Scheduler) Run(ctx context.Context) error {
	t := time.NewTicker(s.c.Interval)
	defer t.Stop()
	for {
		if _, err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			s.c.Logger.Error("notify: scheduler tick", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// TickResult counts what one tick did.
type TickResult struct {
	TimedOut, Reminded, Digests int
}

// Tick times out the due games, then sends due reminders and digests. It
// goes on after a failing game and returns the errors joined.
func (s *Scheduler) Tick(ctx context.Context) (TickResult, error) {
	var res TickResult
	var errs []error
	now := s.c.Now()
	due, err := s.c.Store.DueDeadlines(ctx, now, s.c.Batch)
	if err != nil {
		errs = append(errs, err)
	}
	// The due games time out side by side: each timeout waits out the
	// service's decision pause before it is appended (events/play/pause.go).
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for _, g := range due {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acted, err := s.c.Timeouter.Timeout(ctx, g.ID, now)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if acted {
				res.TimedOut++
			}
		}()
	}
	wg.Wait()
	if res.Reminded, err = s.c.Store.Remind(ctx, now, s.c.Batch); err != nil {
		errs = append(errs, err)
	}
	if res.Digests, err = s.c.Store.Digests(ctx, now, s.c.DigestHour); err != nil {
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}
