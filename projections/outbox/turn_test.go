package outbox

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"
)

// TestTurnRowsTakesTheDue: the turns a game row owes become outbox rows
// once due, with the payload, version, creation time and delay they were
// owed with; the others stay owed.
func TestTurnRowsTakesTheDue(t *testing.T) {
	at := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	p := NewPayload(Head{To: Recipient{Seat: 1, Name: "Ann", Email: "ann@example.org"}, Language: "fr", Version: 7})
	var k Packer
	b, err := k.TurnsJSON([]Row{{GameID: "g", Seat: new(1), Kind: YourTurn, Payload: p, EventVersion: 7, Delay: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	var turns []Turn
	if err := json.Unmarshal(b, &turns); err != nil || len(turns) != 1 || turns[0].DelayUS != time.Minute.Microseconds() {
		t.Fatalf("turns %s: %v", b, err)
	}
	// The game's UPDATE stamps them (migration 0101's turn_mail).
	early, late := turns[0], turns[0]
	early.AtUS, early.DueUS = at.UnixMicro(), at.Add(time.Minute).UnixMicro()
	late.Seat, late.AtUS, late.DueUS = 2, at.UnixMicro(), at.Add(time.Hour).UnixMicro()
	owed, _ := json.Marshal([]Turn{early, late})
	due, rest, err := TurnRows("g", owed, at.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || *due[0].Seat != 1 || due[0].Kind != YourTurn || due[0].EventVersion != 7 || !due[0].At.Equal(at) ||
		due[0].Delay != time.Minute || due[0].Payload.To.Email != "ann@example.org" || due[0].Payload.Language != "fr" {
		t.Fatalf("due rows %+v", due)
	}
	var left []Turn
	if err := json.Unmarshal(rest, &left); err != nil || len(left) != 1 || left[0].Seat != 2 {
		t.Fatalf("still owed %s: %v", rest, err)
	}
	if due, rest, err := TurnRows("g", rest, at.Add(time.Hour)); err != nil || len(due) != 1 || rest != nil {
		t.Fatalf("at the last due time: %d rows, rest %s, %v", len(due), rest, err)
	}
	// A payload written as its JSON object (the first rows of migration
	// 0101) reads as well as a packed one.
	plain, _ := json.Marshal(p)
	legacy := early
	legacy.Payload = plain
	owed, _ = json.Marshal([]Turn{legacy})
	if due, _, err := TurnRows("g", owed, at.Add(time.Minute)); err != nil || len(due) != 1 || due[0].Payload.To.Name != "Ann" {
		t.Fatalf("a plain payload: %+v, %v", due, err)
	}
	if turns[0].Payload[0] != '"' {
		t.Fatalf("the payload is not packed: %s", turns[0].Payload)
	}
	if _, err := k.TurnsJSON([]Row{{GameID: "g", Kind: Chat}}); err == nil {
		t.Fatal("a table-talk row taken as a turn")
	}
}

// TestPackerReusesItsWriters: packing a move's turns allocates a few
// kilobytes, not the 1.2 MB of a new deflate writer (which cost a move
// 0.45 ms of the server's CPU, bench/peers 2026-12-02).
func TestPackerReusesItsWriters(t *testing.T) {
	var k Packer
	rows := []Row{{GameID: "g", Seat: new(2), Kind: YourTurn, Payload: NewPayload(Head{Lines: []string{"Ann plays"}})}}
	if _, err := k.TurnsJSON(rows); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 50
	for range n {
		if _, err := k.TurnsJSON(rows); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 100<<10 {
		t.Fatalf("%d bytes allocated a move's turns, want a reused writer", per)
	}
}
