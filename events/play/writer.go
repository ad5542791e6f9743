package play

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/projections"
)

// DefaultWriters is how many batches a Service writes at once when
// Config.Writers is 0. One: while a batch is in the database the next one
// grows, and fewer, larger transactions cost PostgreSQL less. In the peers
// load test (bench/peers/compare.sh, 32 players) one writer against two
// made batches of 13.7 appends instead of 6.8, PostgreSQL's CPU a move
// 0.110 ms instead of 0.155, and 5% more moves a second, at the same p99.
const DefaultWriters = 1

const (
	// maxBatch is the most appends one batch holds.
	maxBatch = 128
	// maxBatchEvents is the most events one batch holds (the store's limit
	// is events.MaxAppend).
	maxBatchEvents = events.MaxAppend
	// batchTimeout bounds a batch's time in the database, its retries
	// included.
	batchTimeout = 30 * time.Second
)

// pending is one append waiting for the writer, and its outcome.
type pending struct {
	ctx     context.Context
	g       *projections.Game
	st      engine.State // nil for a game's creation
	evs     []events.NewEvent
	decoded []engine.Event
	extra   func(*projections.Change, engine.State) error
	// rewind is the state before a move this append takes back (nil
	// unless it holds a pbem.takeback).
	rewind engine.State
	// notBefore, if set, says when the append may be written: a system
	// decision's pause (pause.go).
	notBefore decisionClock

	// Set by the writer: the new row and state when ran, and whether the
	// append writes or owes emails, the first due after mailIn.
	ng     *projections.Game
	nst    engine.State
	ran    bool
	mail   bool
	mailIn time.Duration
	err    error
	done   chan struct{}
}

// writer is the service's group commit: appends of different games that
// arrive while a batch is being written wait, and are written together as
// the next batch, in one transaction with one commit (events.Store's
// AppendBatch) and their projections in a few statements over arrays
// (Repository.Save). Under load this turns many small transactions into
// few large ones; alone, an append is a batch of one and waits for nobody.
//
// A batch holds at most one append per game; a second append of a game
// already being written waits for the next batch (it will conflict there,
// or succeed if it expects the new version). There is no goroutine while
// nothing waits: write starts writers as needed, up to max, and a writer
// stops when it finds nothing to take.
type writer struct {
	s   *Service
	max int

	mu       sync.Mutex
	queue    []*pending
	inflight map[string]bool // games in a batch being written
	running  int
}

func newWriter(s *Service, n int) *writer {
	if n <= 0 {
		n = DefaultWriters
	}
	return &writer{s: s, max: n, inflight: map[string]bool{}}
}

// write queues p and waits until it is written (or failed). Its outcome is
// in p; the error is also returned.
func (w *writer) write(ctx context.Context, p *pending) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.ctx, p.done = ctx, make(chan struct{})
	w.mu.Lock()
	w.queue = append(w.queue, p)
	if w.running < w.max {
		w.running++
		go w.run()
	}
	w.mu.Unlock()
	<-p.done
	return p.err
}

// Queued is how many appends wait for the writer, not yet taken into a
// batch: the group commit's queue. A test holds a batch in the database
// until the appends it sent meanwhile have queued behind it.
func (s *Service) Queued() int {
	s.writer.mu.Lock()
	defer s.writer.mu.Unlock()
	return len(s.writer.queue)
}

// run writes batches until there is nothing to take.
func (w *writer) run() {
	for {
		batch := w.take()
		if len(batch) == 0 {
			return
		}
		w.s.writeBatch(batch)
		w.mu.Lock()
		for _, p := range batch {
			delete(w.inflight, p.g.ID)
		}
		w.mu.Unlock()
	}
}

// take removes the next batch from the queue: waiting appends in arrival
// order, one per game and none of a game already being written, within the
// batch limits. It returns nil (and the writer stops) when there is none.
func (w *writer) take() []*pending {
	w.mu.Lock()
	defer w.mu.Unlock()
	var batch []*pending
	rest := w.queue[:0]
	n := 0
	for _, p := range w.queue {
		if len(batch) >= maxBatch || n+len(p.evs) > maxBatchEvents || w.inflight[p.g.ID] {
			rest = append(rest, p)
			continue
		}
		w.inflight[p.g.ID] = true
		batch = append(batch, p)
		n += len(p.evs)
	}
	clear(w.queue[len(rest):])
	w.queue = rest
	if len(batch) == 0 {
		w.running--
	}
	return batch
}

// writeBatch appends the batch's events and writes their projections in
// one transaction, and finishes every pending append. When a batch of
// several fails as a whole (a projection error, a database error), each
// append is tried once more alone, under its caller's context, so that one
// bad append fails only itself; the retries stop at the batch's deadline
// (batchTimeout after it started), and those not tried by then fail with
// the batch's error.
func (s *Service) writeBatch(batch []*pending) {
	s.writeBatchBy(batch, time.Now().Add(batchTimeout))
}

func (s *Service) writeBatchBy(batch []*pending, deadline time.Time) {
	live := batch[:0:0]
	for _, p := range batch {
		if err := p.ctx.Err(); err != nil {
			finish(p, err)
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	// One lock order for every batch: two batches that share games (only
	// possible across serve processes) then wait instead of deadlocking.
	slices.SortFunc(live, func(a, b *pending) int { return strings.Compare(a.g.ID, b.g.ID) })
	// A batch of several does not use its callers' contexts (one caller
	// going away must not fail the others); an append alone uses its own.
	parent := context.Background()
	if len(live) == 1 {
		parent = live[0].ctx
	}
	ctx, cancel := context.WithDeadline(parent, deadline)
	defer cancel()
	appends := make([]events.Append, len(live))
	for i, p := range live {
		appends[i] = events.Append{Stream: p.g.ID, Expected: p.g.Version, Events: p.evs, Key: p.g.CommitKey}
	}
	hook := func(ctx context.Context, tx events.Tx, out []events.Appended) error {
		changes := make([]*projections.Change, 0, len(out))
		for i, o := range out {
			if !o.Wrote() {
				continue
			}
			c, err := s.project(live[i], o.Events)
			if err != nil {
				return err
			}
			changes = append(changes, c)
		}
		if len(changes) == 0 {
			return nil
		}
		return s.repo.Save(ctx, tx, changes)
	}
	out, err := s.store.AppendBatch(ctx, appends, hook)
	if err != nil {
		if len(live) > 1 {
			for _, p := range live {
				p.ng, p.nst, p.ran = nil, nil, false
				if time.Now().After(deadline) {
					finish(p, err)
					continue
				}
				s.writeBatchBy([]*pending{p}, deadline)
			}
			return
		}
		finish(live[0], err)
		return
	}
	for i, p := range live {
		switch o := out[i]; {
		case o.Err != nil:
			finish(p, refusal(o.Err))
		case o.Replayed:
			p.ng, p.nst, p.ran = nil, nil, false
			finish(p, nil)
		default:
			finish(p, nil)
		}
	}
}

// refusal is the store's refusal of one append as the service reports it:
// a conflict stays one (appendPending answers it); any other (an append the
// service built wrong) is the service's bug, an internal error, whose
// store message no client sees.
func refusal(err error) error {
	if events.IsConflict(err) {
		return err
	}
	return fmt.Errorf("play: the event store refused an append: %v", err)
}

// finish ends a pending append with err.
func finish(p *pending, err error) {
	if err != nil {
		p.ng, p.nst, p.ran = nil, nil, false
	}
	p.err = err
	close(p.done)
}
