package postgres_test

import (
	"context"
	"errors"
	"testing"

	"pbem/events"
	"pbem/events/postgres"
)

// A hook's deferred statements are committed with the append; a failing one
// fails the append, and neither the events nor the hook's rows are kept.
func TestDeferredHookStatements(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE deferred_rows (stream text, version bigint PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	write := func(ctx context.Context, tx events.Tx, evs []events.Event) error {
		if tx == nil {
			return errors.New("the hook has no transaction")
		}
		// A statement the hook runs itself comes before the deferred ones.
		if _, err := postgres.TxOf(tx).Exec(ctx, `INSERT INTO deferred_rows VALUES ('now', $1)`, -evs[0].Version); err != nil {
			return err
		}
		for _, e := range evs {
			tx.Defer(`INSERT INTO deferred_rows VALUES ($1, $2)`, e.Stream, e.Version)
		}
		return nil
	}
	if _, err := s.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`), ev("B", `2`)}, write); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM deferred_rows`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 3 {
		t.Fatalf("%d rows after the append, want 3", n)
	}
	// Version 2 is taken in deferred_rows: the deferred insert fails.
	clash := func(ctx context.Context, tx events.Tx, evs []events.Event) error {
		tx.Defer(`INSERT INTO deferred_rows VALUES ('clash', 2)`)
		return nil
	}
	if _, err := s.Append(ctx, "g", 2, []events.NewEvent{ev("C", `3`)}, write, clash); err == nil {
		t.Fatal("append with a failing deferred statement succeeded")
	}
	if n := count(); n != 3 {
		t.Fatalf("%d rows after the failed append, want 3 (rolled back)", n)
	}
	got, err := s.ReadStream(ctx, "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d events after the failed append, want 2", len(got))
	}
	// The store still works on the same connections.
	if _, err := s.Append(ctx, "g", 2, []events.NewEvent{ev("C", `3`)}, write); err != nil {
		t.Fatalf("append after the failure: %v", err)
	}
	if n := count(); n != 5 {
		t.Fatalf("%d rows, want 5", n)
	}
}
