package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// notifier sends NOTIFY for this process's appends, after they commit,
// coalesced and at most one per minGap: however many appends commit while
// one NOTIFY is on its way or during the gap, one more follows it. Each
// NOTIFY is a transaction of its own, with its own WAL flush; one per append
// would halve a single writer's rate. Listeners in other processes hear of
// an append at most minGap plus a round trip after it commits; local Notify
// channels are woken at once by Append itself.
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
	pool    *pgxpool.Pool
	pending chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
	once    sync.Once
}

func newNotifier(pool *pgxpool.Pool) *notifier {
	ctx, stop := context.WithCancel(context.Background())
	n := &notifier{pool: pool, pending: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go n.run(ctx)
	return n
}

// kick asks for a NOTIFY without waiting for it.
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
		nctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		// Best effort: a failed NOTIFY only delays readers until they poll.
		_, _ = n.pool.Exec(nctx, "SELECT pg_notify($1, '')", channel)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-time.After(minGap):
		}
	}
}

// close stops the notifier, dropping a NOTIFY not yet sent.
func (n *notifier) close() {
	n.once.Do(func() {
		n.stop()
		<-n.done
	})
}
