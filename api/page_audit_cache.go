package api

import (
	"sync"

	"pbem/events/play"
)

// auditCache keeps what the public audit page of an ended game costs to
// build: the record (every event, read from the store), the chart's scores
// (the whole game replayed) and the events told in each language. An
// ended game's record changes only by what is appended after its end
// (table talk): an entry holds the version it was built at and is built
// again for a later one. The cache holds at most max games, dropping the
// oldest entry first, so that requests for many games cost memory within
// a bound. Issue #44: the page cost 9.7 ms of CPU a request, every
// request.
type auditCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*auditEntry
	order   []string // ids, oldest first
}

// auditEntry is one ended game's cached audit, at version.
type auditEntry struct {
	version int64
	audit   *play.Audit
	scores  []roundScores
	mu      sync.Mutex
	texts   map[string][]string // by "lang\x00names"
}

// defaultAuditCacheGames bounds the games cached.
const defaultAuditCacheGames = 64

func newAuditCache(max int) *auditCache {
	return &auditCache{max: max, entries: map[string]*auditEntry{}}
}

// get returns game id's entry at version, built by build on a miss or
// for an earlier version (not cached when build fails).
func (c *auditCache) get(id string, version int64, build func() (*auditEntry, error)) (*auditEntry, error) {
	c.mu.Lock()
	e, ok := c.entries[id]
	c.mu.Unlock()
	if ok && e.version >= version {
		return e, nil
	}
	e, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[id]; ok {
		if old.version >= e.version {
			return old, nil
		}
		c.entries[id] = e
		return e, nil
	}
	if len(c.order) >= c.max {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[id] = e
	c.order = append(c.order, id)
	return e, nil
}

// textsFor returns the events told in lang with names, built by tell once.
func (e *auditEntry) textsFor(lang string, names []string, tell func() []string) []string {
	key := lang
	for _, n := range names {
		key += "\x00" + n
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if t, ok := e.texts[key]; ok {
		return t
	}
	if e.texts == nil {
		e.texts = map[string][]string{}
	}
	t := tell()
	e.texts[key] = t
	return t
}
