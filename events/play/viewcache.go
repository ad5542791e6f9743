package play

import "sync"

// viewCacheSize is how many past views of seats the service keeps.
const viewCacheSize = 512

// viewKey names a seat's view of a game at a version.
type viewKey struct {
	game    string
	seat    int
	version int64
	lang    string // the reader's language: labels differ
}

// viewCache keeps seats' views at past versions: the "before" of a
// CatchUp, asked again at each reload and live update of a page. A game's
// past never changes (its stream is append-only), so an entry never goes
// stale; the oldest entry leaves first when the cache is full. Safe for
// concurrent use; the views are only read.
type viewCache struct {
	mu    sync.Mutex
	views map[viewKey]any
	order []viewKey
}

func newViewCache() *viewCache { return &viewCache{views: map[viewKey]any{}} }

func (c *viewCache) get(k viewKey) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.views[k]
	return v, ok
}

func (c *viewCache) put(k viewKey, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.views[k]; ok {
		return
	}
	if len(c.order) >= viewCacheSize {
		delete(c.views, c.order[0])
		c.order = c.order[1:]
	}
	c.views[k] = v
	c.order = append(c.order, k)
}

// clear forgets every view.
func (c *viewCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.views, c.order = map[viewKey]any{}, nil
}
