package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// listener owns the store's dedicated LISTEN connection. It runs only while
// someone waits on a Notify channel, and wakes every such channel when a
// notification arrives (from any process appending to the database) or
// when it (re)connects, since appends may have been missed meanwhile.
type listener struct {
	cfg     *pgx.ConnConfig
	self    string // the payload of this store's own NOTIFYs (notifier.self)
	waiters waiters

	mu     sync.Mutex
	stop   context.CancelFunc // stops the running loop; nil when none runs
	closed bool
	wg     sync.WaitGroup
}

func newListener(cfg *pgx.ConnConfig, self string) *listener { return &listener{cfg: cfg, self: self} }

// Notify implements events.Store.Notify. The channel receives a value
// (coalesced) after an append commits, in this process or another one using
// the same database, and is closed when ctx ends or the store is closed;
// during a burst of appends, at most one per minGap from each process (see
// notifier). A value is also sent when the listener connection
// (re)connects.
//
// Notifications are wake-ups, not data: a reader should read with ReadAll
// after each one, and also on a timer, because ReadAll may hold events back
// until older transactions end, and those send no notification.
func (s *Store) Notify(ctx context.Context) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l := s.lis
	c := make(chan struct{}, 1)
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		close(c)
		return c, nil
	}
	l.waiters.add(c)
	if l.stop == nil {
		loopCtx, stop := context.WithCancel(context.Background())
		l.stop = stop
		l.wg.Add(1)
		go l.loop(loopCtx)
	}
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.waiters.remove(c) == 0 && l.stop != nil {
			l.stop()
			l.stop = nil
		}
	}()
	return c, nil
}

// loop listens until ctx ends, reconnecting with a growing pause.
func (l *listener) loop(ctx context.Context) {
	defer l.wg.Done()
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		if l.listen(ctx) {
			pause = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
			pause = min(2*pause, 5*time.Second)
		}
	}
}

// listen runs one connection's LISTEN until it fails or ctx ends. It
// reports whether it got as far as listening.
func (l *listener) listen(ctx context.Context) bool {
	conn, err := pgx.ConnectConfig(ctx, l.cfg.Copy())
	if err != nil {
		return false
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return false
	}
	l.waiters.wake()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true
		}
		l.heard(n)
	}
}

// heard wakes the channels for a notification, unless this store sent it:
// its notifier woke them already.
func (l *listener) heard(n *pgconn.Notification) {
	if n.Payload != l.self {
		l.waiters.wake()
	}
}

// close stops the loop and closes every waiting channel.
func (l *listener) close() {
	l.mu.Lock()
	l.closed = true
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	l.waiters.removeAll()
	l.mu.Unlock()
	l.wg.Wait()
}
