package play

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Timeouter applies a game's timeout policy when its deadline has passed
// (Service.Timeout, or it counted by notify.Metrics). It reports whether it
// acted: false when the game is not due or moved on meanwhile, so calling
// it twice for one deadline (two serve processes) records one timeout.
type Timeouter interface {
	Timeout(ctx context.Context, gameID string, now time.Time) (bool, error)
}

// AwayEnder ends a seat's away that has reached its end by now
// (Service.EndAway) and reports whether it did.
type AwayEnder interface {
	EndAway(ctx context.Context, gameID string, seat int, now time.Time) (bool, error)
}

// DueBack is a seat whose person's away has reached its end.
type DueBack struct {
	GameID string
	Seat   int
}

// SeatMover lists a seat's legal moves now as an email numbers them, and
// the tag of the list (Service.SeatMoves).
type SeatMover interface {
	SeatMoves(ctx context.Context, id string, seat int) (labels []string, choice string, err error)
}

// Digester writes the daily digest rows due at now (one per address with
// the digest preference and games waiting, once per UTC day, from hour
// o'clock UTC on) and returns how many it wrote (notify/postgres.Digester).
type Digester interface {
	Digests(ctx context.Context, now time.Time, hour int) (int, error)
}

// DueGame is a game whose deadline (or reminder time) has passed.
type DueGame struct {
	ID      string
	Version int64
	// ToMove are the seats awaited when the deadline passed (for a
	// reminder: those of them that read email, a bot's seat left out).
	ToMove []int
}

// SeatList is a seat's legal moves as a reminder numbers them, and the
// tag of the list.
type SeatList struct {
	Labels []string
	Choice string
}

// Reminder is a reminder to write: the game as it was found due, and the
// moves of each of its awaited seats at that version (none: the reminder
// numbers no moves).
type Reminder struct {
	DueGame
	Moves map[int]SeatList
}

// DeadlineStore is the scheduler's view of the games table
// (events/play/postgres.Deadlines implements it).
type DeadlineStore interface {
	// DueDeadlines lists up to limit active games whose deadline is at or
	// before now, oldest first, without holding them.
	DueDeadlines(ctx context.Context, now time.Time, limit int) ([]DueGame, error)
	// DueReminders lists up to limit active games whose reminder time has
	// passed and which were not reminded for their current deadline,
	// without holding them.
	DueReminders(ctx context.Context, now time.Time, limit int) ([]DueGame, error)
	// Remind writes, in one transaction, one reminder row per awaited seat
	// of each game of due that is still due and still at the version it was
	// found at (a game another scheduler reminded meanwhile is left out),
	// and marks those games reminded. It returns how many games it reminded.
	Remind(ctx context.Context, now time.Time, due []Reminder) (int, error)
	// DueBacks lists up to limit seats of games going on whose away ends
	// at or before now, the earliest end first, without holding them.
	DueBacks(ctx context.Context, now time.Time, limit int) ([]DueBack, error)
}

// SchedulerConfig configures a Scheduler. Store and Timeouter are required.
type SchedulerConfig struct {
	Store     DeadlineStore
	Timeouter Timeouter
	// Moves, if set, numbers the moves of a reminded seat (the service),
	// so that a reminder can be answered with a number.
	Moves SeatMover
	// Away, if set, ends the aways that reached their end at each tick
	// (the service), before the timeouts.
	Away AwayEnder
	// Digests, if set, writes the daily digests at each tick.
	Digests Digester
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
// writes reminders before deadlines, and has the daily digests written.
//
// Several serve processes may run a Scheduler: due games are listed
// without a lock, and a game two schedulers time out is timed out once
// because the service appends at the game's version (the second append
// conflicts and reports false); a reminder takes its game by a
// conditional update, so it is written once. No call of the service
// happens while the store holds a game's row: a reminder's moves are read
// before its row is taken, and written only if the game is still at the
// version they were read at.
type Scheduler struct{ c SchedulerConfig }

// NewScheduler checks c and fills in defaults.
func NewScheduler(c SchedulerConfig) (*Scheduler, error) {
	if c.Store == nil || c.Timeouter == nil {
		return nil, errors.New("play: scheduler needs a store and a timeouter")
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
		return nil, errors.New("play: scheduler: digest hour must be 0 to 23")
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
			s.c.Logger.Error("play: scheduler tick", "err", err)
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
	// Back counts the aways ended.
	Back int
}

// Tick times out the due games, then writes due reminders and digests. It
// goes on after a failing game and returns the errors joined.
func (s *Scheduler) Tick(ctx context.Context) (TickResult, error) {
	var res TickResult
	var errs []error
	now := s.c.Now()
	if s.c.Away != nil {
		n, err := s.endAways(ctx, now)
		res.Back = n
		if err != nil {
			errs = append(errs, err)
		}
	}
	due, err := s.c.Store.DueDeadlines(ctx, now, s.c.Batch)
	if err != nil {
		errs = append(errs, err)
	}
	// The due games time out side by side: each timeout waits out the
	// service's decision pause before it is appended (pause.go).
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
	if res.Reminded, err = s.remindAt(ctx, now); err != nil {
		errs = append(errs, err)
	}
	if s.c.Digests != nil {
		if res.Digests, err = s.c.Digests.Digests(ctx, now, s.c.DigestHour); err != nil {
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// endAways ends the aways whose end has come by now, and counts them.
func (s *Scheduler) endAways(ctx context.Context, now time.Time) (int, error) {
	due, err := s.c.Store.DueBacks(ctx, now, s.c.Batch)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, b := range due {
		ended, err := s.c.Away.EndAway(ctx, b.GameID, b.Seat, now)
		if err != nil {
			errs = append(errs, err)
		} else if ended {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// Remind writes the reminders due at the scheduler's now (what a tick
// does after the timeouts) and returns how many games it reminded.
func (s *Scheduler) Remind(ctx context.Context) (int, error) { return s.remindAt(ctx, s.c.Now()) }

// remindAt writes the reminders due at now: it lists the due games, reads
// each awaited seat's moves from the service with no row held, and has the
// store write the reminders of the games still at the version read.
func (s *Scheduler) remindAt(ctx context.Context, now time.Time) (int, error) {
	due, err := s.c.Store.DueReminders(ctx, now, s.c.Batch)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	out := make([]Reminder, len(due))
	for i, g := range due {
		out[i] = Reminder{DueGame: g}
		if s.c.Moves == nil {
			continue
		}
		out[i].Moves = map[int]SeatList{}
		for _, seat := range g.ToMove {
			labels, choice, err := s.c.Moves.SeatMoves(ctx, g.ID, seat)
			if err != nil {
				return 0, err
			}
			out[i].Moves[seat] = SeatList{Labels: labels, Choice: choice}
		}
	}
	return s.c.Store.Remind(ctx, now, out)
}
