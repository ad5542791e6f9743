package postgres_test

import (
	"context"
	"testing"

	"pbem/engine/lords"
	"pbem/notify/postgres"
)

// TestZoneOfFallsBackToThePersonsZone: a seat's time zone is its own,
// else the one its person gave on another seat (by address, whatever its
// case), else none; a seat that does not exist has none. One statement
// whose subqueries Citus plans apart (make test-citus runs the away
// replies that read it).
func TestZoneOfFallsBackToThePersonsZone(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	seats := postgres.NewSeats(e.pool, postgres.Histories{})
	a, b := e.create(lords.Name, "en", 2), e.create(lords.Name, "en", 2)
	if err := seats.SetZone(ctx, a.ID, 0, "Europe/Paris"); err != nil {
		t.Fatal(err)
	}
	// b's seat 0 is P0's too: clear its zone, as on a seat made before
	// P0 gave one, and write its address in capitals.
	if _, err := e.pool.Exec(ctx, `UPDATE seats SET time_zone = '', email = upper(email) WHERE game_id = $1 AND seat = 0`, b.ID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		game string
		seat int
		want string
	}{
		{a.ID, 0, "Europe/Paris"}, // its own
		{b.ID, 0, "Europe/Paris"}, // its person's, from game a
		{b.ID, 1, ""},             // P1 gave none
		{"no-such-game", 0, ""},
	} {
		got, err := seats.ZoneOf(ctx, c.game, c.seat)
		if err != nil || got != c.want {
			t.Errorf("ZoneOf(%s, %d) = %q, %v; want %q", c.game, c.seat, got, err, c.want)
		}
	}
}
