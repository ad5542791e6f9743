package postgres

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pbem/events"
	"pbem/events/postgres/pgtest"
)

// TestDecoderMatchesScan checks the fast decoder against pgx's Scan on the
// same rows, and that the fast path is the one taken.
func TestDecoderMatchesScan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := New(pgtest.NewPool(t))
	defer s.Close()
	big := json.RawMessage(`{"blob":"` + string(make([]byte, 5000)) + `"}`)
	for i := range big {
		if big[i] == 0 {
			big[i] = 'x'
		}
	}
	meta := events.Metadata{Actor: "seat:1", RequestID: "r", IdempotencyKey: "k"}
	if _, err := s.Append(ctx, "g", 0, []events.NewEvent{{Type: "A", Data: json.RawMessage(`{"a":"é"}`), Meta: meta}, {Type: "B", Data: big}}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.pool.Query(ctx, selectEvents+` ORDER BY position`)
	if err != nil {
		t.Fatal(err)
	}
	if _, fast := newDecoder(rows.FieldDescriptions()); !fast {
		t.Fatalf("fast decoder not used for formats %+v", rows.FieldDescriptions())
	}
	fast, err := scanEvents(rows)
	if err != nil {
		t.Fatal(err)
	}
	rows, err = s.pool.Query(ctx, selectEvents+` ORDER BY position`)
	if err != nil {
		t.Fatal(err)
	}
	var slow []events.Event
	for rows.Next() {
		var e events.Event
		var data []byte
		if err := rows.Scan(&e.Position, &e.Stream, &e.Version, &e.Type, &data, &e.Meta.Actor, &e.Meta.RequestID,
			&e.Meta.IdempotencyKey, &e.RecordedAt, &e.Hash); err != nil {
			t.Fatal(err)
		}
		e.Data = data
		e.RecordedAt = e.RecordedAt.UTC()
		slow = append(slow, e)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("decoder and Scan differ:\n%+v\n%+v", fast[0], slow[0])
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Fatal(err)
	}
}

func TestPgEpoch(t *testing.T) {
	t.Parallel()
	if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(); pgEpoch != want {
		t.Fatalf("pgEpoch %d, want %d", int64(pgEpoch), want)
	}
}
