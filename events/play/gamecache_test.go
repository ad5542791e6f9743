package play

import (
	"fmt"
	"testing"

	"pbem/engine"
	"pbem/projections"
)

// fakeState is a stand-in engine.State for the cache tests.
type fakeState struct {
	engine.State
	name string
}

func row(id string, version int64, state string) *projections.Game {
	return &projections.Game{ID: id, Version: version, State: []byte(state)}
}

func TestGameCacheKeyedByVersion(t *testing.T) {
	t.Parallel()
	c := newGameCache(4)
	g3 := row("g", 3, `{"a":1}`)
	st := &fakeState{name: "v3"}
	c.put(g3, st)
	if e, ok := c.get("g"); !ok || e.g != g3 {
		t.Fatalf("get = %v %v, want the cached row", e, ok)
	}
	if got := c.state(row("g", 3, `{"a":1}`)); got != st {
		t.Fatalf("state of an equal row = %v, want the cached state", got)
	}
	if got := c.state(row("g", 4, `{"a":1}`)); got != nil {
		t.Fatalf("state at another version = %v, want nil", got)
	}
	if got := c.state(row("g", 3, `{"a":2}`)); got != st {
		t.Fatalf("state of another row at the same version = %v, want the cached state (its snapshot bytes do not matter)", got)
	}
	if _, ok := c.get("h"); ok {
		t.Fatal("get of another game found one")
	}
	// An older version never replaces a newer one.
	c.put(row("g", 2, `{"a":0}`), &fakeState{name: "v2"})
	if e, _ := c.get("g"); e.g != g3 {
		t.Fatalf("an older put replaced the newer row")
	}
	// The same row again keeps its decoded state.
	c.put(row("g", 3, `{"a":1}`), nil)
	if got := c.state(g3); got != st {
		t.Fatalf("re-putting the same row lost its state")
	}
	g4 := row("g", 4, `{"a":4}`)
	c.put(g4, nil)
	if e, _ := c.get("g"); e.g != g4 || c.state(g4) != nil {
		t.Fatalf("a newer put did not replace the row, or kept the old state")
	}
	if c.len() != 1 {
		t.Fatalf("len = %d, want 1 (one entry per game)", c.len())
	}
	c.drop("g")
	if _, ok := c.get("g"); ok {
		t.Fatal("a dropped game is still found")
	}
	c.put(row("g", 1, `{}`), nil) // after a drop any version is taken
	if e, ok := c.get("g"); !ok || e.g.Version != 1 {
		t.Fatal("a put after a drop was refused")
	}
}

func TestGameCacheBounded(t *testing.T) {
	t.Parallel()
	c := newGameCache(3)
	for i := range 10 {
		c.put(row(fmt.Sprint("g", i), 1, "x"), &fakeState{})
		if c.len() > 3 {
			t.Fatalf("after %d puts len = %d, want at most 3", i+1, c.len())
		}
	}
	// The three newest games are kept, the oldest are evicted.
	for i := range 10 {
		_, got := c.get(fmt.Sprint("g", i))
		if want := i >= 7; got != want {
			t.Errorf("game g%d cached = %v, want %v", i, got, want)
		}
	}
}

func TestGameCacheDisabled(t *testing.T) {
	t.Parallel()
	c := newGameCache(-1)
	c.put(row("g", 1, "x"), &fakeState{})
	if _, ok := c.get("g"); ok || c.len() != 0 || c.state(row("g", 1, "x")) != nil {
		t.Fatal("a disabled cache kept a game")
	}
}
