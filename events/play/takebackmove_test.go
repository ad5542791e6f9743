package play

import (
	"encoding/json"
	"strings"
	"testing"

	"pbem/events"
	"pbem/events/pbemevent"
)

// stream builds a stream from (type, actor, request, key) rows.
func stream(rows ...[4]string) []events.Event {
	out := make([]events.Event, len(rows))
	for i, r := range rows {
		data := json.RawMessage(`{}`)
		out[i] = events.Event{Stream: "g", Version: int64(i + 1), Type: r[0], Data: data,
			Meta: events.Metadata{Actor: r[1], RequestID: r[2], IdempotencyKey: r[3]}}
	}
	return out
}

// TestTakebackMove checks how a move is found in a stream: the run of
// events of one request of one seat, started by its idempotency key; quiet
// events after it allowed; anything else after it, a service event, a
// bot's or the system's move, or a move taken back refused.
func TestTakebackMove(t *testing.T) {
	t.Parallel()
	created := [4]string{pbemevent.TypeCreated, "admin", "", ""}
	evs := stream(created,
		[4]string{"played", "seat:0", "r1", "k1"},
		[4]string{"played", "seat:1", "r2", ""},
		[4]string{"mustered", "seat:1", "r3", "k3"},        // 4: a keyed move of two events
		[4]string{"turn", "seat:1", "r3", ""},              // 5
		[4]string{pbemevent.TypeChat, "seat:0", "c", ""},   // 6: quiet
		[4]string{pbemevent.TypeExtended, "admin", "", ""}, // 7: quiet
	)
	move, from, seat, err := TakebackMove(evs, 5)
	if err != nil || from != 4 || seat != 1 || len(move) != 2 {
		t.Fatalf("move at 5: from %d, seat %d, %d events, %v", from, seat, len(move), err)
	}
	for v, want := range map[int64]string{
		4: "moved on", 3: "moved on", 1: "not a move", 6: "not a move", 99: "not a move",
	} {
		if _, _, _, err := TakebackMove(evs, v); ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), want) {
			t.Errorf("version %d: %v, want a conflict saying %q", v, err, want)
		}
	}
	// Taken back: refused again; the earlier move of the same seat may
	// follow (nothing but the taken-back move and its take-back after it).
	tb, _ := json.Marshal(pbemevent.Takeback{Seat: 1, Version: 5, From: 4})
	evs = append(evs, events.Event{Stream: "g", Version: 8, Type: pbemevent.TypeTakeback, Data: tb, Meta: events.Metadata{Actor: "seat:1"}})
	if _, _, _, err := TakebackMove(evs, 5); err == nil || !strings.Contains(err.Error(), "already taken back") {
		t.Errorf("a move taken back twice: %v", err)
	}
	if _, from, seat, err := TakebackMove(evs, 3); err != nil || from != 3 || seat != 1 {
		t.Errorf("the move before a take-back: from %d seat %d, %v", from, seat, err)
	}
	back, err := pbemevent.TakenBack(evs)
	if err != nil || !back[4] || !back[5] || back[3] || back[8] {
		t.Errorf("taken back %v, %v", back, err)
	}
	// A bot's or the system's move is not a player's.
	bot := stream(created, [4]string{"played", "bot:easy", "b", ""}, [4]string{"played", "system", "", ""})
	for _, v := range []int64{2, 3} {
		if _, _, _, err := TakebackMove(bot, v); err == nil || !strings.Contains(err.Error(), "not a player's move") && !strings.Contains(err.Error(), "moved on") {
			t.Errorf("version %d of bots: %v", v, err)
		}
	}
}
