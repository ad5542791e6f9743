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
