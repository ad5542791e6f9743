package play

import (
	"sync"

	"pbem/engine"
	"pbem/projections"
)

// DefaultGameCache is how many games a Service keeps in memory when
// Config.GameCache is 0.
const DefaultGameCache = 2048

// gameCache keeps the rows and decoded engine states of recently used
// games, so that a move reads nothing from the database before its append
// and a view reads only its game's version (see Service.game).
//
// An entry is one game's row at one version. Rows and states are shared
// between requests and must never be modified (the projector works on a
// clone; engine.State's Decide, Legal and View do not modify, Apply is only
// called on a Clone). A state is used for any row of its game at its
// version: a stream's events up to a version never change, so neither does
// the state they give (a rebuild, which rewrites a row at the same version,
// drops its game's entry all the same).
//
// Memory is bounded by the entry count: entries are evicted in insertion
// order (a game's newer row replaces its entry in place).
type gameCache struct {
	max int

	mu   sync.Mutex
	m    map[string]cachedGame
	ring []string // game ids in insertion order, for eviction
	next int      // the oldest slot of ring once it is full
}

// cachedGame is one game's row and, once decoded, its state.
type cachedGame struct {
	g  *projections.Game
	st engine.State // the state at g.Version; nil until decoded
}

// newGameCache returns a cache of at most n games (none when n <= 0).
func newGameCache(n int) *gameCache {
	if n <= 0 {
		return nil
	}
	return &gameCache{max: n, m: make(map[string]cachedGame, n)}
}

// get returns the entry of game id.
func (c *gameCache) get(id string) (cachedGame, bool) {
	if c == nil {
		return cachedGame{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || e.g.Version < 0 {
		return cachedGame{}, false
	}
	return e, true
}

// state returns the decoded state of g when the cache has one for g's
// version, else nil.
func (c *gameCache) state(g *projections.Game) engine.State {
	e, ok := c.get(g.ID)
	if !ok || e.st == nil || e.g.Version != g.Version {
		return nil
	}
	return e.st
}

// put remembers g and its state st (nil: not decoded yet) as the game's
// newest row, unless the cache holds a newer version already. The caller
// hands both over: nobody may modify them afterwards.
func (c *gameCache) put(g *projections.Game, st engine.State) {
	if c == nil || g == nil {
		return
	}
	e := cachedGame{g: g, st: st}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[g.ID]; ok {
		if old.g.Version <= g.Version {
			if e.st == nil && old.g.Version == g.Version {
				e.st = old.st // the same version again: keep its decoded state
			}
			c.m[g.ID] = e
		}
		return
	}
	if len(c.ring) < c.max {
		c.ring = append(c.ring, g.ID)
	} else {
		delete(c.m, c.ring[c.next])
		c.ring[c.next] = g.ID
		c.next = (c.next + 1) % c.max
	}
	c.m[g.ID] = e
}

// drop forgets game id's row (its slot in the ring is reused later).
func (c *gameCache) drop(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok {
		// Keep the map entry's slot: a version no row has makes it a miss.
		e.g = &projections.Game{ID: id, Version: -1}
		e.st = nil
		c.m[id] = e
	}
}

// len returns how many games are kept.
func (c *gameCache) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// clear forgets every row.
func (c *gameCache) clear() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = make(map[string]cachedGame, c.max)
	c.ring, c.next = c.ring[:0], 0
}
