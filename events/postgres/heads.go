package postgres

import (
	"sync"

	"pbem/events"
)

// maxHeads is how many streams' heads a Store remembers.
const maxHeads = 8192

// heads remembers the newest event (version and hash) of the streams this
// Store wrote lately, as committed. An append whose expected version is
// the remembered head's needs no lookup: its hashes are chained in Go and
// its events inserted as they are (see insertSQL). A committed event
// never changes, so a remembered head can only be too old (another process
// appended since), never wrong: the append then loses on UNIQUE(stream,
// version) as it would anyway, and the head is forgotten.
//
// When full, it forgets everything and starts over: simpler than an
// eviction order, and cheap (a forgotten head costs one lookup).
type heads struct {
	mu sync.Mutex
	m  map[string]head
}

// head is a stream's newest event.
type head struct {
	version int64
	hash    []byte
}

// get returns the remembered head of stream. A new stream (expected 0) has
// a known head: the genesis hash at version 0.
func (h *heads) get(stream string, expected int64) (head, bool) {
	if expected == 0 {
		return head{version: 0, hash: events.GenesisHash()}, true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	hd, ok := h.m[stream]
	return hd, ok
}

// note remembers the heads after a committed batch, and forgets those of
// the streams whose append lost.
func (h *heads) note(appends []events.Append, out []events.Appended) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, o := range out {
		switch {
		case o.Wrote():
			if h.m == nil || len(h.m) >= maxHeads {
				h.m = make(map[string]head)
			}
			last := o.Events[len(o.Events)-1]
			h.m[last.Stream] = head{version: last.Version, hash: last.Hash}
		case o.Err != nil && events.IsConflict(o.Err):
			delete(h.m, appends[i].Stream)
		}
	}
}
