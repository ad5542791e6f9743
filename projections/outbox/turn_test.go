package outbox

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"
)

// TestDueTurnsTakesTheDue: of the turns a game row owes, those whose grace
// has ended are due, with the seat, version, creation time and delay they
// were owed with; the others stay owed.
func TestDueTurnsTakesTheDue(t *testing.T) {
	at := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	b, err := TurnsJSON("g", []Turn{{Seat: 1, Version: 7, From: 6, DelayUS: time.Minute.Microseconds()}})
	if err != nil {
		t.Fatal(err)
	}
	var turns []Turn
	if err := json.Unmarshal(b, &turns); err != nil || len(turns) != 1 || turns[0].DelayUS != time.Minute.Microseconds() {
		t.Fatalf("turns %s: %v", b, err)
	}
	// The game's UPDATE stamps them (migration 0105's turn_mail_next).
	early, late := turns[0], turns[0]
	early.AtUS, early.DueUS = at.UnixMicro(), at.Add(time.Minute).UnixMicro()
	late.Seat, late.AtUS, late.DueUS = 2, at.UnixMicro(), at.Add(time.Hour).UnixMicro()
	owed, _ := json.Marshal([]Turn{early, late})
	due, rest, err := DueTurns("g", owed, at.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || due[0].Seat != 1 || due[0].Version != 7 || due[0].From != 6 {
		t.Fatalf("due turns %+v", due)
	}
	r := due[0].Row("g", NewPayload(Head{Language: "fr", Version: 7}))
	if *r.Seat != 1 || r.Kind != YourTurn || r.EventVersion != 7 || !r.At.Equal(at) || r.Delay != time.Minute || r.Payload.Language != "fr" {
		t.Fatalf("due row %+v", r)
	}
	var left []Turn
	if err := json.Unmarshal(rest, &left); err != nil || len(left) != 1 || left[0].Seat != 2 {
		t.Fatalf("still owed %s: %v", rest, err)
	}
	if due, rest, err := DueTurns("g", rest, at.Add(time.Hour)); err != nil || len(due) != 1 || rest != nil {
		t.Fatalf("at the last due time: %d turns, rest %s, %v", len(due), rest, err)
	}
	if _, _, err := DueTurns("g", []byte(`{"seat":1}`), at); err == nil {
		t.Fatal("an owed object that is no array was read")
	}
}

// TestPreviousReleasesPayloadsRead: an element a previous release owed
// with its payload (migrations 0101 to 0104), as the payload's JSON object
// or packed (deflated, in base64, a JSON string), keeps it.
func TestPreviousReleasesPayloadsRead(t *testing.T) {
	p := NewPayload(Head{To: Recipient{Seat: 1, Name: "Ann", Email: "ann@example.org"}, Language: "fr", Version: 7})
	plain, _ := json.Marshal(p)
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestSpeed)
	_, _ = w.Write(plain)
	_ = w.Close()
	packed, _ := json.Marshal(base64.RawStdEncoding.EncodeToString(z.Bytes()))
	for _, kept := range []json.RawMessage{plain, packed} {
		owed, _ := json.Marshal([]Turn{{Seat: 1, Version: 7, AtUS: 1, DueUS: 2, Payload: kept}})
		due, _, err := DueTurns("g", owed, time.UnixMicro(2))
		if err != nil || len(due) != 1 {
			t.Fatalf("%s: %+v, %v", kept, due, err)
		}
		got, err := UnpackPayload(due[0].Payload)
		if err != nil || got.To.Email != "ann@example.org" || got.Language != "fr" {
			t.Fatalf("%s: payload %+v, %v", kept, got, err)
		}
	}
}

// TestTurnsOweOnlyTheirIdentity: what a move writes on its game row for a
// your-turn email is what identifies it, a few dozen bytes, not its
// payload (every move rewrites the row, and the WAL logs it whole).
func TestTurnsOweOnlyTheirIdentity(t *testing.T) {
	b, err := TurnsJSON("g", []Turn{{Seat: 3, Version: 1234, From: 1232, DelayUS: (2 * time.Minute).Microseconds()}})
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 80 || bytes.Contains(b, []byte("payload")) {
		t.Fatalf("a turn owed as %d bytes: %s", len(b), b)
	}
	if b, err := TurnsJSON("g", nil); b != nil || err != nil {
		t.Fatalf("no turn owed as %s, %v", b, err)
	}
}
