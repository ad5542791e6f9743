package projections

import (
	"hash/maphash"
	"sync"

	"pbem/engine"
)

// DefaultStateCache is how many decoded engine states a Service keeps when
// Config.StateCache is 0.
const DefaultStateCache = 2048

// stateCache keeps decoded engine states, so that the view a player reads
// and the move it then posts do not decode the same state JSON again.
//
// An entry belongs to one game at one version, and it is used only for the
// exact state bytes it was decoded from or encoded to (their hash is
// compared): a row written by another serve process, a rebuild, or anything
// else that does not match simply misses and is decoded. Cached states are
// shared between requests and must never be modified (engine.State's Decide,
// Legal and View do not; Apply is only called on a Clone).
//
// Memory is bounded by the entry count: entries are evicted in insertion
// order (a game's new version replaces its entry in place).
type stateCache struct {
	seed maphash.Seed
	max  int

	mu   sync.Mutex
	m    map[string]cachedState
	ring []string // game ids in insertion order, for eviction
	next int      // the oldest slot of ring once it is full
}

type cachedState struct {
	version int64
	sum     uint64
	st      engine.State
}

// newStateCache returns a cache of at most n states (none when n <= 0).
func newStateCache(n int) *stateCache {
	if n <= 0 {
		return nil
	}
	return &stateCache{seed: maphash.MakeSeed(), max: n, m: make(map[string]cachedState, n)}
}

// get returns the state of game id at version decoded from data, or nil.
func (c *stateCache) get(id string, version int64, data []byte) engine.State {
	if c == nil {
		return nil
	}
	sum := maphash.Bytes(c.seed, data)
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if !ok || e.version != version || e.sum != sum {
		return nil
	}
	return e.st
}

// put remembers st as the state of game id at version, encoded as data.
// The caller hands st over: nobody may modify it afterwards.
func (c *stateCache) put(id string, version int64, data []byte, st engine.State) {
	if c == nil || st == nil {
		return
	}
	e := cachedState{version: version, sum: maphash.Bytes(c.seed, data), st: st}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[id]; ok {
		if old.version <= version {
			c.m[id] = e
		}
		return
	}
	if len(c.ring) < c.max {
		c.ring = append(c.ring, id)
	} else {
		delete(c.m, c.ring[c.next])
		c.ring[c.next] = id
		c.next = (c.next + 1) % c.max
	}
	c.m[id] = e
}

// len returns how many states are kept.
func (c *stateCache) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
