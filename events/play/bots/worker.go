// Package bots plays the seats a bot holds: a worker that finds the games
// awaiting a bot's decision, claims each seat (so that several servers on
// one database play it once) and plays it through the game service
// (events/play, whose PlayBot decides the move with engine/bot).
//
// It lives under events/play because it is one of the service's drivers:
// like a request or the deadline scheduler's timeout, a bot's move enters
// the game through the service and is appended to the event log; it sends
// no email (notify) and projects nothing (projections). It knows the
// service only as a Player, so the service does not import it; cmd/pbem
// starts it. Its SQL reads the games and seats rows the projector keeps
// and writes only seats.bot_lease.
package bots

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Player is what the bot worker needs of the game service: play one
// decision of the bot of a seat (play.(*Service).PlayBot).
type Player interface {
	PlayBot(ctx context.Context, id string, seat int) (bool, error)
}

// Config configures a Worker.
type Config struct {
	// Player plays the moves (the game service).
	Player Player
	// Delay is the bot's think time: how long after a game last changed its
	// bot plays (PBEM_BOT_DELAY; 0 plays at once).
	Delay time.Duration
	// Lease is how long a claimed seat is kept from other workers: after a
	// crash, the decision is taken again once it ends. 0 means 30s.
	Lease time.Duration
	// Wake, if set, wakes the worker (the store's append notifications);
	// it also polls every Poll.
	Wake <-chan struct{}
	// Poll is the polling period; 0 means 1s.
	Poll time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger logs failed decisions; nil means slog.Default().
	Logger *slog.Logger
}

// Worker plays the bots' moves: it finds active games whose awaited
// seat is a bot's and whose last change is at least Delay old, claims
// each such seat (a short lease in seats.bot_lease, taken by a
// conditional update, so that no row lock is held while the move is
// appended), plays it through the service, and releases the lease. Several
// servers may run it on one database: each decision is claimed by one, and
// the move's idempotency key makes a replay by another harmless.
type Worker struct {
	pool *pgxpool.Pool
	c    Config
}

// NewWorker returns a Worker on pool.
func NewWorker(pool *pgxpool.Pool, c Config) *Worker {
	if c.Lease <= 0 {
		c.Lease = 30 * time.Second
	}
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Worker{pool: pool, c: c}
}

// botDueSQL lists, without locking them, up to $2 awaited bot seats of
// games unchanged since $3 that no worker holds at $1: the candidates of
// a claim.
const botDueSQL = `
SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
WHERE s.bot IS NOT NULL AND g.status = 'active' AND s.seat = ANY (g.to_move)
  AND g.updated_at <= $3 AND (s.bot_lease IS NULL OR s.bot_lease <= $1)
ORDER BY g.updated_at, s.game_id, s.seat
LIMIT $2`

// botLeaseSQL leases the candidate seats ($3 their games, $4 their seats)
// still free at $1, for $2 microseconds. The lease is checked again on
// each row: a seat another worker leased since it was listed (this
// statement waits for that claim's short transaction) is left out, so each
// seat goes to one worker. The games name the shards on Citus.
const botLeaseSQL = `
UPDATE seats s SET bot_lease = $1 + $2 * interval '1 microsecond'
FROM unnest($3::text[], $4::int[]) AS c(game_id, seat)
WHERE s.game_id = ANY($3) AND s.game_id = c.game_id AND s.seat = c.seat
  AND (s.bot_lease IS NULL OR s.bot_lease <= $1)
RETURNING s.game_id, s.seat`

// Seat is one claimed seat.
type Seat struct {
	GameID string
	Seat   int
}

// Claim leases up to limit awaited bot seats that are due. It lists them
// without a lock, then leases them by game and seat (botDueSQL,
// botLeaseSQL): no row lock is taken over the seats of many games, which
// Citus refuses across shards (docs/SCALING.md, "The claims over all
// games"). A seat another worker leased first is not returned; it is not
// looked for again before the next run.
func (w *Worker) Claim(ctx context.Context, limit int) ([]Seat, error) {
	now := w.c.Now().UTC()
	rows, err := w.pool.Query(ctx, botDueSQL, now, limit, now.Add(-w.c.Delay))
	if err != nil {
		return nil, fmt.Errorf("bots: claim bot seats: %w", err)
	}
	var games []string
	var seats []int32
	var game string
	var seat int32
	if _, err := pgx.ForEachRow(rows, []any{&game, &seat}, func() error {
		games, seats = append(games, game), append(seats, seat)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("bots: claim bot seats: %w", err)
	}
	if len(games) == 0 {
		return nil, nil
	}
	rows, err = w.pool.Query(ctx, botLeaseSQL, now, w.c.Lease.Microseconds(), games, seats)
	if err != nil {
		return nil, fmt.Errorf("bots: claim bot seats: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Seat, error) {
		var b Seat
		err := r.Scan(&b.GameID, &b.Seat)
		return b, err
	})
	if err != nil {
		return nil, fmt.Errorf("bots: claim bot seats: %w", err)
	}
	return out, nil
}

// release ends the lease of a seat whose decision was played.
func (w *Worker) release(ctx context.Context, b Seat) error {
	_, err := w.pool.Exec(ctx, `UPDATE seats SET bot_lease = NULL WHERE game_id = $1 AND seat = $2`, b.GameID, b.Seat)
	if err != nil {
		return fmt.Errorf("bots: release bot seat: %w", err)
	}
	return nil
}

// RunOnce claims the due bot seats (up to 20) and plays one decision of
// each, all at once: a decision waits out the service's decision pause
// before it is appended (events/play/pause.go), so one after the other
// twenty seats would take twenty pauses and outlast their lease. It
// returns how many moves it played. A failed decision keeps its lease,
// so it is tried again when the lease ends, and is logged.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	seats, err := w.Claim(ctx, 20)
	if err != nil {
		return 0, err
	}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		n      int
		errOut error
	)
	for _, b := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			played, err := w.c.Player.PlayBot(ctx, b.GameID, b.Seat)
			if err != nil {
				w.c.Logger.Warn("bot move failed", "game", b.GameID, "seat", b.Seat, "err", err)
				return
			}
			err = w.release(ctx, b)
			mu.Lock()
			defer mu.Unlock()
			if played {
				n++
			}
			if err != nil && errOut == nil {
				errOut = err
			}
		}()
	}
	wg.Wait()
	return n, errOut
}

// Run plays bots' moves until ctx ends: at once after a move (the next
// decision may be a bot's again), else on a wake-up or every Poll. With a
// think delay, a game that just changed is retried at its next poll.
func (w *Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.c.Poll)
	defer t.Stop()
	wake := w.c.Wake
	for {
		n, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.c.Logger.Warn("bot worker", "err", err)
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case _, ok := <-wake:
			if !ok {
				wake = nil // the store closed: poll only
			}
		case <-t.C:
		}
	}
}
