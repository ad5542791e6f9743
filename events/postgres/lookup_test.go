package postgres_test

import (
	"math"
	"slices"
	"testing"

	"pbem/events"
	"pbem/events/postgres"
)

// LastActs answers each request in its place: the actor's last event up to
// the upper version, events of the skipped type prefix left out unless
// their type is one of those kept, 0 for an actor with none and for a
// stream with no event (which has no first event to join the request to).
func TestLastActsAnswersEachRequestInItsPlace(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	by := func(actor, typ string) events.NewEvent {
		e := ev(typ, `1`)
		e.Meta.Actor = actor
		return e
	}
	// g: 1 seat:0, 2 seat:1, 3 seat:0, 4 seat:0 of the service (skipped), 5 seat:1.
	if _, err := s.Append(ctx, "g", 0, []events.NewEvent{by("seat:0", "move"), by("seat:1", "move"),
		by("seat:0", "move"), by("seat:0", "svc.note"), by("seat:1", "move")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "h", 0, []events.NewEvent{by("seat:1", "move")}); err != nil {
		t.Fatal(err)
	}
	streams := []string{"h", "g", "nothing", "g", "g", "g", "h"}
	actors := []string{"seat:1", "seat:0", "seat:0", "seat:1", "seat:0", "seat:2", "seat:0"}
	uptos := []int64{math.MaxInt64, math.MaxInt64, math.MaxInt64, 4, 2, math.MaxInt64, 1}
	got, err := postgres.LastActs(ctx, s.Pool(), streams, actors, uptos, "svc.")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{1, 3, 0, 2, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("LastActs = %v, want %v", got, want)
	}
	// Keeping svc.note: seat:0's note (4) is its last act; svc.other is
	// still left out.
	got, err = postgres.LastActs(ctx, s.Pool(), streams, actors, uptos, "svc.", "svc.other", "svc.note")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{1, 4, 0, 2, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("LastActs keeping svc.note = %v, want %v", got, want)
	}
}
