package projections

import (
	"fmt"
	"testing"

	"pbem/engine"
)

// fakeState is a stand-in engine.State for the cache tests.
type fakeState struct {
	engine.State
	name string
}

func TestStateCacheKeyedByVersionAndBytes(t *testing.T) {
	c := newStateCache(4)
	st := &fakeState{name: "v3"}
	c.put("g", 3, []byte(`{"a":1}`), st)
	if got := c.get("g", 3, []byte(`{"a":1}`)); got != st {
		t.Fatalf("get at the same version and bytes = %v, want the cached state", got)
	}
	if got := c.get("g", 4, []byte(`{"a":1}`)); got != nil {
		t.Fatalf("get at another version = %v, want nil", got)
	}
	if got := c.get("g", 3, []byte(`{"a":2}`)); got != nil {
		t.Fatalf("get with other bytes = %v, want nil (a row the cache did not see)", got)
	}
	if got := c.get("h", 3, []byte(`{"a":1}`)); got != nil {
		t.Fatalf("get of another game = %v, want nil", got)
	}
	// An older version never replaces a newer one.
	c.put("g", 2, []byte(`{"a":0}`), &fakeState{name: "v2"})
	if got := c.get("g", 3, []byte(`{"a":1}`)); got != st {
		t.Fatalf("an older put replaced the newer state")
	}
	st4 := &fakeState{name: "v4"}
	c.put("g", 4, []byte(`{"a":4}`), st4)
	if got := c.get("g", 4, []byte(`{"a":4}`)); got != st4 {
		t.Fatalf("a newer put did not replace the state")
	}
	if c.len() != 1 {
		t.Fatalf("len = %d, want 1 (one entry per game)", c.len())
	}
}

func TestStateCacheBounded(t *testing.T) {
	c := newStateCache(3)
	for i := range 10 {
		c.put(fmt.Sprint("g", i), 1, []byte("x"), &fakeState{})
		if c.len() > 3 {
			t.Fatalf("after %d puts len = %d, want at most 3", i+1, c.len())
		}
	}
	// The three newest games are kept, the oldest are evicted.
	for i := range 10 {
		got := c.get(fmt.Sprint("g", i), 1, []byte("x")) != nil
		if want := i >= 7; got != want {
			t.Errorf("game g%d cached = %v, want %v", i, got, want)
		}
	}
}

func TestStateCacheDisabled(t *testing.T) {
	c := newStateCache(-1)
	c.put("g", 1, []byte("x"), &fakeState{})
	if c.get("g", 1, []byte("x")) != nil || c.len() != 0 {
		t.Fatal("a disabled cache kept a state")
	}
}
