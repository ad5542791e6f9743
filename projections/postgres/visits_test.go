package postgres_test

import (
	"context"
	"sync"
	"testing"

	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
)

// Visit remembers the version a seat saw before the one it is shown: the
// same version again (a reload) or an older one (a late request) changes
// nothing; each seat has its own; racing visits of a seat leave it at
// the highest version.
func TestVisitRemembersThePreviousVersionSeen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _, _, pool := playtest.NewService(t, nil)
	visits := playpg.New(pool)
	id := playtest.Create(t, svc, 2).ID
	steps := []struct {
		seat      int
		version   int64
		wantSince int64
	}{
		{0, 3, 0}, {0, 3, 0}, {0, 7, 3}, {0, 7, 3}, {0, 5, 3}, {1, 5, 0}, {0, 9, 7}, {1, 9, 5}, {1, 9, 5},
	}
	for i, s := range steps {
		got, err := visits.Visit(ctx, id, s.seat, s.version)
		if err != nil {
			t.Fatal(err)
		}
		if got != s.wantSince {
			t.Fatalf("step %d: seat %d at v%d: since v%d, want v%d", i, s.seat, s.version, got, s.wantSince)
		}
	}
	if _, err := visits.Visit(ctx, "no-such-game", 0, 1); err == nil {
		t.Error("a visit of an unknown game was recorded")
	}

	// Racing visits of one seat at versions 10..19: afterwards the seat has
	// seen 19, and each answer was a version from before 19.
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for v := int64(10); v < 20; v++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			since, err := visits.Visit(ctx, id, 0, v)
			if err == nil && (since < 7 || since >= 19) {
				t.Errorf("visit at v%d: since v%d", v, since)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if since, err := visits.Visit(ctx, id, 0, 20); err != nil || since != 19 {
		t.Errorf("after the race: since v%d (%v), want v19", since, err)
	}
}
