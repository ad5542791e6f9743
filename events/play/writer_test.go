package play_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// batchSpy is an events.Store that records the size of every batch, holds
// the first batch of moves in its transaction until release is closed (so
// that the others queue up behind it), and fails any batch in which the
// stream poison wrote.
type batchSpy struct {
	events.Store
	poison string
	// holding is closed when the first batch of moves is held; release
	// ends the hold.
	holding, release chan struct{}

	mu    sync.Mutex
	sizes []int
	held  bool
}

var errPoison = errors.New("poisoned projection")

func (s *batchSpy) AppendBatch(ctx context.Context, appends []events.Append, hook events.BatchHook) ([]events.Appended, error) {
	s.mu.Lock()
	s.sizes = append(s.sizes, len(appends))
	hold := !s.held && appends[0].Expected > 0
	s.held = s.held || hold
	s.mu.Unlock()
	return s.Store.AppendBatch(ctx, appends, func(ctx context.Context, tx events.Tx, out []events.Appended) error {
		if hold {
			close(s.holding)
			<-s.release
		}
		for i, o := range out {
			if o.Wrote() && appends[i].Stream == s.poison {
				return errPoison
			}
		}
		return hook(ctx, tx, out)
	})
}

// Moves of many games posted at once are written in shared batches; a move
// whose batch fails is tried again alone, so that only the bad one fails.
// The first move's batch is held in the database until the eleven others
// have queued behind it (play.Service.Queued), so that they are written
// as one batch, the poisoned game among them, in every run.
func TestWriterBatchesAndIsolatesFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc0, repo, _, pool := playtest.NewService(t, nil)
	spy := &batchSpy{Store: playtest.NewStore(t, pool), holding: make(chan struct{}), release: make(chan struct{})}
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: spy,
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	const n = 12
	ids := make([]string, n)
	for i := range ids {
		ids[i] = playtest.Create(t, svc0, 2).ID
	}
	spy.poison = ids[5]
	rng := rand.New(rand.NewPCG(11, 12))
	type move struct {
		tok string
		req play.MoveRequest
	}
	moves := make([]move, n)
	for i, id := range ids {
		g, err := repo.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tok := tokens.Seat(secret, id, g.ToMove[0], 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		moves[i] = move{tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = svc.Move(ctx, ids[i], moves[i].tok, moves[i].req)
		}()
		if i == 0 {
			<-spy.holding // the first batch is held: the others queue
		}
	}
	for deadline := time.Now().Add(time.Minute); svc.Queued() < n-1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			close(spy.release)
			t.Fatalf("%d moves queued behind the held batch after a minute, want %d", svc.Queued(), n-1)
		}
	}
	close(spy.release)
	wg.Wait()
	for i, err := range errs {
		g, gerr := repo.Game(ctx, ids[i])
		if gerr != nil {
			t.Fatal(gerr)
		}
		moved := g.Version == moves[i].req.Version+1
		if i == 5 {
			if !errors.Is(err, errPoison) || moved {
				t.Errorf("poisoned game: err %v, moved %v; want its own error and no move", err, moved)
			}
			continue
		}
		if err != nil || !moved {
			t.Errorf("game %d: err %v, version %d; want moved from %d", i, err, g.Version, moves[i].req.Version)
		}
	}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	largest := 0
	for _, s := range spy.sizes {
		largest = max(largest, s)
	}
	if largest != n-1 {
		t.Errorf("batch sizes %v: the %d moves queued were not written together", spy.sizes, n-1)
	}
}
