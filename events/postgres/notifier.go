package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// notifier tells of this store's appends, after they commit, coalesced and
// at most once per minGap: however many appends commit while it tells of
// one or during the gap, it tells once more after it. To tell is to wake
// this store's Notify channels (local), then send a NOTIFY (other
// processes). Each NOTIFY is a transaction of its own, with its own WAL
// flush; one per append would halve a single writer's rate. And each wake
// costs a query in each worker that listens (pbem serve's outbox sender and
// bot worker): woken after every batch, and again by the echo of the
// batch's NOTIFY (which the listener now ignores, see listener.heard),
// they sent four queries for the batch's own two round trips. A lone
// append is told at once; in a burst, listeners hear of an append at most
// minGap (plus a round trip, in other processes) after it commits.
//
// Why not pg_notify inside the append's transaction: PostgreSQL serialises
// the commits of all notifying transactions of the cluster (a lock held
// through the commit's WAL flush, so that notifications queue in commit
// order). With 32 writers that cut appends from about 4,800/s to under
// 1,000/s when this store was measured with NOTIFY inside (BenchmarkAppend,
// separate runs). The price of notifying afterwards: if the
// process dies between a commit and its NOTIFY, listeners miss that wake-up,
// which is why readers also poll on a timer (see Store.Notify).
// minGap is the least time between two NOTIFYs of one store.
const minGap = 10 * time.Millisecond

type notifier struct {
	pool *pgxpool.Pool
	// self is the payload of this store's NOTIFYs, which its own listener
	// ignores: local channels are woken without them.
	self    string
	local   *waiters
	pending chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
	once    sync.Once
}

func newNotifier(pool *pgxpool.Pool, self string, local *waiters) *notifier {
	ctx, stop := context.WithCancel(context.Background())
	n := &notifier{pool: pool, self: self, local: local, pending: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go n.run(ctx)
	return n
}

// kick asks to tell of an append, without waiting.
func (n *notifier) kick() {
	select {
	case n.pending <- struct{}{}:
	default:
	}
}

func (n *notifier) run(ctx context.Context) {
	defer close(n.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.pending:
		}
		n.local.wake()
		nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		// Best effort: a failed NOTIFY only delays readers until they poll.
		_, _ = n.pool.Exec(nctx, "SELECT pg_notify($1, $2)", channel, n.self)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-time.After(minGap):
		}
	}
}

// close stops the notifier, dropping a wake and a NOTIFY not yet sent.
func (n *notifier) close() {
	n.once.Do(func() {
		n.stop()
		<-n.done
	})
}
