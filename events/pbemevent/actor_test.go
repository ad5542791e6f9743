package pbemevent

import "testing"

// TestSeatActorReadsBack checks that a seat's actor reads back as its seat
// and that the service's own actors and malformed ones read as no seat.
func TestSeatActorReadsBack(t *testing.T) {
	for _, seat := range []int{0, 1, 5, 12} {
		if got, ok := SeatOfActor(SeatActor(seat)); !ok || got != seat {
			t.Errorf("SeatOfActor(SeatActor(%d)) = %d, %v", seat, got, ok)
		}
	}
	for _, actor := range []string{"system", "admin", "bot:normal", ForcedActor(2), "seat:", "seat:x", "seat:-1", "Seat:1"} {
		if got, ok := SeatOfActor(actor); ok {
			t.Errorf("SeatOfActor(%q) = %d, want no seat", actor, got)
		}
	}
}

// TestGameStep: an event of the game is its actor's act when its data
// names the acting seat; a step of the game's own when it names no seat or
// another; a service event is always its actor's.
func TestGameStep(t *testing.T) {
	for _, c := range []struct {
		typ  string
		seat int
		data string
		want bool
	}{
		{"played", 1, `{"seat":1,"card":"c7"}`, false},
		{"round_ended", 1, `{"round":2}`, true},
		{"turn_started", 0, `{"seat":1,"card":12}`, true},
		{"played", -1, `{"seat":1}`, false}, // a bot's move: no acting seat known
		{"round_ended", -1, `{}`, true},
		{TypeChat, 0, `{"text":"hi"}`, false},
		{"played", 0, `not json`, true},
	} {
		if got := GameStep(c.typ, c.seat, []byte(c.data)); got != c.want {
			t.Errorf("GameStep(%q, %d, %s) = %v, want %v", c.typ, c.seat, c.data, got, c.want)
		}
	}
}
