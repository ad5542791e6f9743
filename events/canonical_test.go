package events_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"pbem/events"
)

func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{" [ 1 , 2.50 , -0.0e3 ] ", `[1,2.50,-0.0e3]`},
		{`{"z":{"y":null,"x":[true,false]},"a":"<&>\u00e9\u2028"}`, "{\"a\":\"<&>é\\u2028\",\"z\":{\"x\":[true,false],\"y\":null}}"},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`"s"`, `"s"`},
	} {
		got, err := events.CanonicalJSON([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("CanonicalJSON(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `  `, `{`, `1 2`, `{"a":}`, `nul`} {
		if _, err := events.CanonicalJSON([]byte(bad)); !events.IsInvalid(err) {
			t.Errorf("CanonicalJSON(%q): err %v, want CodeInvalid", bad, err)
		}
	}
}

// TestCanonicalIsStable pins the canonical bytes and the hash: changing them
// would break the chains of every stored event.
func TestCanonicalIsStable(t *testing.T) {
	t.Parallel()
	e := events.Event{
		Stream: "game-1", Version: 2, Type: "CardPlayed",
		Data:       json.RawMessage(`{"seat":1,"card":"K"}`),
		Meta:       events.Metadata{Actor: "seat:1", RequestID: "r1", IdempotencyKey: "k"},
		RecordedAt: time.Date(2026, 1, 2, 3, 4, 5, 678901000, time.FixedZone("X", 3600)),
	}
	got, err := events.Canonical(&e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"card":"K","seat":1},"meta":{"actor":"seat:1","idempotency_key":"k","request_id":"r1"},"recorded_at":1767319445678901,"stream":"game-1","type":"CardPlayed","version":2}`
	if string(got) != want {
		t.Fatalf("Canonical:\n got %s\nwant %s", got, want)
	}
	h := events.ChainHash(events.GenesisHash(), got)
	if len(h) != events.HashSize {
		t.Fatalf("hash length %d", len(h))
	}
	if hex.EncodeToString(h) != hex.EncodeToString(events.ChainHash(make([]byte, 32), []byte(want))) {
		t.Fatal("ChainHash is not SHA-256(prev || canonical)")
	}
}

func TestVerifyChainNamesFirstBadEvent(t *testing.T) {
	t.Parallel()
	s := events.NewMemoryStore()
	ctx := t.Context()
	for i := range 4 {
		if _, err := s.Append(ctx, "g", int64(i), []events.NewEvent{{Type: "A", Data: json.RawMessage(`1`)}}); err != nil {
			t.Fatal(err)
		}
	}
	evs, _ := s.ReadStream(ctx, "g", 1)
	if err := events.VerifyChain("g", evs, nil); err != nil {
		t.Fatal(err)
	}
	evs[2].Data = json.RawMessage(`2`)
	var ce *events.ChainError
	if err := events.VerifyChain("g", evs, nil); !errors.As(err, &ce) || ce.Version != 3 {
		t.Fatalf("tampered data: %v", err)
	}
	if err := events.VerifyChain("g", append(evs[:1:1], evs[2:]...), nil); !errors.As(err, &ce) || ce.Version != 2 {
		t.Fatalf("missing event: %v", err)
	}
	// The store's own copy is untouched by the caller's edit.
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Fatalf("store changed through a returned slice: %v", err)
	}
}

func TestCanonicalPreparedMatchesCanonical(t *testing.T) {
	t.Parallel()
	prepared, err := events.Prepare("g", 4, []events.NewEvent{{Type: "T", Data: json.RawMessage(` {"b":1, "a":[2, 1]} `), Meta: events.Metadata{Actor: "x"}}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want, err := events.Canonical(&prepared[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := events.CanonicalPrepared(&prepared[0]); string(got) != string(want) {
		t.Fatalf("CanonicalPrepared %s, Canonical %s", got, want)
	}
	if prepared[0].Version != 5 || string(prepared[0].Data) != `{"a":[2,1],"b":1}` {
		t.Fatalf("prepared %+v", prepared[0])
	}
}

// FuzzCanonicalJSON: the canonical form is valid JSON, stable (canonical of
// canonical is itself) and means the same as the input.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2.5e3,"x"]}`, `"\u00e9\ud83d\ude00<&>\u2028"`, `[null,true,false,{}]`, `{"a":{"a":{"a":-0}}}`, `"\x7f\/"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := events.CanonicalJSON(in)
		if err != nil {
			if !events.IsInvalid(err) {
				t.Fatalf("error is not CodeInvalid: %v", err)
			}
			return
		}
		if !json.Valid(c) {
			t.Fatalf("canonical form %q of %q is not valid JSON", c, in)
		}
		again, err := events.CanonicalJSON(c)
		if err != nil || string(again) != string(c) {
			t.Fatalf("not stable: %q -> %q -> %q (%v)", in, c, again, err)
		}
		var a, b any
		if json.Unmarshal(in, &a) == nil && json.Unmarshal(c, &b) == nil && !reflect.DeepEqual(a, b) {
			t.Fatalf("meaning changed: %q -> %q", in, c)
		}
	})
}
