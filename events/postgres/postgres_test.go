package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func ev(typ, data string) events.NewEvent {
	return events.NewEvent{Type: typ, Data: json.RawMessage(data)}
}

func TestVerifyNamesTamperedEvent(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	for i := range 5 {
		if _, err := s.Append(ctx, "g", int64(i), []events.NewEvent{ev("Move", `{"card":1}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Fatalf("Verify before tampering: %v", err)
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE events SET data = '{"card":9}' WHERE stream = 'g' AND version = 3`); err != nil {
		t.Fatal(err)
	}
	err := s.Verify(ctx, "g", nil)
	var ce *events.ChainError
	if !errors.As(err, &ce) || ce.Version != 3 || ce.Stream != "g" {
		t.Fatalf("Verify after tampering with version 3: %v", err)
	}

	// Re-hashing the edited event does not help: its hash is not the chain's.
	if _, err := s.Pool().Exec(ctx, `UPDATE events SET hash = sha256('x') WHERE stream = 'g' AND version = 3`); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "g", nil); !errors.As(err, &ce) || ce.Version != 3 {
		t.Fatalf("Verify after re-hashing: %v", err)
	}
	// A deleted event is named too.
	if _, err := s.Pool().Exec(ctx, `DELETE FROM events WHERE stream = 'g' AND version = 2`); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "g", nil); !errors.As(err, &ce) || ce.Version != 2 {
		t.Fatalf("Verify after a delete: %v", err)
	}
}

func TestMigrationsUpDownUp(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	latest, err := migrations.Latest()
	if err != nil {
		t.Fatal(err)
	}
	for i, step := range []struct {
		name string
		run  func(string) error
		want uint
	}{{"up", migrations.Up, latest}, {"down", migrations.Down, 0}, {"up again", migrations.Up, latest}} {
		if err := step.run(url); err != nil {
			t.Fatalf("step %d (%s): %v", i, step.name, err)
		}
		v, dirty, err := migrations.Version(url)
		if err != nil || dirty || v != step.want {
			t.Fatalf("after %s: version %d dirty %v err %v, want %d", step.name, v, dirty, err, step.want)
		}
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := postgres.New(pool)
	defer s.Close()
	if _, err := s.Append(ctxT(t), "g", 0, []events.NewEvent{ev("A", `1`)}); err != nil {
		t.Fatalf("append after up/down/up: %v", err)
	}
}

func TestHookWritesInTheAppendTransaction(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE hook_rows (stream text, version bigint)`); err != nil {
		t.Fatal(err)
	}
	write := func(ctx context.Context, tx events.Tx, evs []events.Event) error {
		ptx := postgres.TxOf(tx)
		if ptx == nil {
			return errors.New("no pgx transaction")
		}
		for _, e := range evs {
			if _, err := ptx.Exec(ctx, `INSERT INTO hook_rows VALUES ($1, $2)`, e.Stream, e.Version); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := s.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`), ev("B", `2`)}, write); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	_, err := s.Append(ctx, "g", 2, []events.NewEvent{ev("C", `3`)}, write, func(context.Context, events.Tx, []events.Event) error { return boom })
	if err != boom {
		t.Fatalf("err %v, want the hook's", err)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM hook_rows`).Scan(&n); err != nil || n != 2 {
		t.Errorf("hook rows: %d (%v), want 2: the failed append's hook row must be rolled back", n, err)
	}
	if postgres.TxOf(nil) != nil {
		t.Error("TxOf(nil) is not nil")
	}
}

// TestReadAllWaitsForOlderTransactions makes the late commit deterministic:
// append A inserts first and is held open by its hook, append B inserts
// after it and commits. ReadAll must not return B (a later position) before
// A commits, or a reader would move past A and never see it.
func TestReadAllWaitsForOlderTransactions(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	inserted, release := make(chan struct{}), make(chan struct{})
	aDone := make(chan error, 1)
	go func() {
		_, err := s.Append(ctx, "a", 0, []events.NewEvent{ev("A", `1`)}, func(context.Context, events.Tx, []events.Event) error {
			close(inserted)
			<-release
			return nil
		})
		aDone <- err
	}()
	<-inserted
	b, err := s.Append(ctx, "b", 0, []events.NewEvent{ev("B", `2`)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadAll(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("ReadAll returned %d events while an older append was running", len(got))
	}
	close(release)
	if err := <-aDone; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < 2 && time.Now().Before(deadline) {
		if got, err = s.ReadAll(ctx, 0, 100); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(got) != 2 || got[0].Stream != "a" || got[1].Stream != "b" || got[1].Position != b[0].Position {
		t.Fatalf("ReadAll after both committed: %+v", got)
	}
}

// TestNotifyAcrossStores checks the LISTEN/NOTIFY path: a store that did not
// append (as another process would be) hears of the append.
func TestNotifyAcrossStores(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	writer := newStore(t)
	conn, err := pgx.Connect(ctx, writer.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	reader := postgres.New(writer.Pool())
	defer reader.Close()
	c, err := reader.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The first value says the listener is connected.
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatal("listener did not connect")
	}
	if _, err := writer.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatal("no notification from another store's append")
	}
	reader.Close()
	if _, ok := <-c; ok {
		t.Fatal("channel still open after Close")
	}
}

// TestReadAllIgnoresOtherDatabases: a transaction left open in another
// database of the server does not hold this store's readers back.
func TestReadAllIgnoresOtherDatabases(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	other, err := pgx.Connect(ctx, pgtest.NewEmptyDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `SELECT pg_current_xact_id()`); err != nil {
		t.Fatal(err)
	}
	s := newStore(t)
	if _, err := s.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`)}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := s.ReadAll(ctx, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("ReadAll held back by a transaction of another database")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAppendAfterPositionsFromTheFuture simulates a dump of another server
// restored here: a stored position above this server's transaction ids. A
// store opened on it (as after a restart) shifts the positions once and
// serves appends whose positions come after it, and the global log returns
// old and new events in order.
func TestAppendAfterPositionsFromTheFuture(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	old, err := s.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE events SET position = (pg_current_xact_id()::text::bigint + 1000000) * 10000 WHERE position = $1`, old[0].Position); err != nil {
		t.Fatal(err)
	}
	restored := postgres.New(s.Pool())
	defer restored.Close()
	b, err := restored.Append(ctx, "g", 1, []events.NewEvent{ev("B", `2`)})
	if err != nil {
		t.Fatalf("append after a foreign position: %v", err)
	}
	var foreign int64
	if err := s.Pool().QueryRow(ctx, `SELECT position FROM events WHERE stream = 'g' AND version = 1`).Scan(&foreign); err != nil {
		t.Fatal(err)
	}
	if b[0].Position <= foreign {
		t.Fatalf("new position %d not after the restored %d", b[0].Position, foreign)
	}
	// A second store (another serve process) finds nothing to shift.
	other := postgres.New(s.Pool())
	defer other.Close()
	if _, err := other.Append(ctx, "h", 0, []events.NewEvent{ev("C", `3`)}); err != nil {
		t.Fatal(err)
	}
	var shift int64
	if err := s.Pool().QueryRow(ctx, `SELECT shift FROM events_xid_shift`).Scan(&shift); err != nil || shift <= 0 {
		t.Fatalf("shift %d (%v), want it raised", shift, err)
	}
	var got []events.Event
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < 3 && time.Now().Before(deadline) {
		if got, err = restored.ReadAll(ctx, 0, 10); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(got) != 3 || got[0].Type != "A" || got[1].Type != "B" || got[2].Type != "C" {
		t.Fatalf("ReadAll after the restore: %v, want A, B, C in order", got)
	}
	if err := restored.Verify(ctx, "g", nil); err != nil {
		t.Fatal(err)
	}
}
