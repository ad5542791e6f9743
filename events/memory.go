package events

import (
	"context"
	"slices"
	"sync"
)

// MemoryStore is a Store kept in memory, for tests and tools. It behaves like
// the Postgres store (same validation, conflicts, idempotency, hash chain)
// except that it forgets everything when the process ends. Positions are
// 1, 2, 3... The zero value is not usable; call NewMemoryStore.
//
// Append holds the store's lock while it runs its hooks, which receive a nil
// Tx: a hook must not call the store, or it deadlocks.
type MemoryStore struct {
	mu      sync.Mutex
	all     []Event          // the global log; all[i].Position == i+1
	streams map[string][]int // stream -> indexes into all, by version
	// keys maps stream -> idempotency key -> the append that carried it.
	keys    map[string]map[string]span
	waiters map[chan struct{}]struct{}
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{
		streams: map[string][]int{},
		keys:    map[string]map[string]span{},
		waiters: map[chan struct{}]struct{}{},
	}
}

// Append implements Store.Append. Errors: *Error with CodeConflict or
// CodeInvalid, ctx's error, or a hook's error unchanged.
func (m *MemoryStore) Append(ctx context.Context, stream string, expected int64, evs []NewEvent, hooks ...AppendHook) ([]Event, error) {
	prepared, err := Prepare(stream, expected, evs, RecordedNow())
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.check(stream, expected, evs, prepared, 0, nil)
	if out.Err != nil || out.Replayed {
		return out.Events, out.Err
	}
	for _, h := range hooks {
		if err := h(ctx, nil, cloneEvents(out.Events)); err != nil {
			return nil, err
		}
	}
	m.commit([]Appended{out})
	return out.Events, nil
}

// AppendBatch implements Store.AppendBatch: the appends are checked in
// order, the hook runs once, and the events of the successful ones are
// stored together.
func (m *MemoryStore) AppendBatch(ctx context.Context, appends []Append, hook BatchHook) ([]Appended, error) {
	if err := CheckBatch(appends); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := RecordedNow()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Appended, len(appends))
	next := 0
	for i, a := range appends {
		prepared, err := Prepare(a.Stream, a.Expected, a.Events, now)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i] = m.check(a.Stream, a.Expected, a.Events, prepared, next, a.Key)
		if out[i].Wrote() {
			next += len(prepared)
		}
	}
	if hook != nil {
		if err := hook(ctx, nil, CopyAppended(out)); err != nil {
			return nil, err
		}
	}
	m.commit(out)
	return out, nil
}

// check decides one append against the stored streams (m.mu held): a
// replay of an earlier key, a conflict, or prepared with positions and
// hashes filled in, positions starting skip events after the log's end.
func (m *MemoryStore) check(stream string, expected int64, evs []NewEvent, prepared []Event, skip int, key *CommitKey) Appended {
	if key := evs[0].Meta.IdempotencyKey; key != "" {
		if sp, ok := m.keys[stream][key]; ok {
			return Appended{Events: cloneEvents(m.all[sp.first : sp.first+sp.n]), Replayed: true}
		}
	}
	idx := m.streams[stream]
	if int64(len(idx)) != expected {
		return Appended{Err: Errorf(CodeConflict, "stream %q is at version %d, not %d", stream, len(idx), expected)}
	}
	prev := GenesisHash()
	if len(idx) > 0 {
		prev = m.all[idx[len(idx)-1]].Hash
	}
	for i := range prepared {
		prepared[i].Position = int64(len(m.all) + skip + i + 1)
	}
	ChainPrepared(prepared, prev, key)
	return Appended{Events: prepared}
}

// commit stores the events of the appends that wrote (m.mu held), in
// order, and wakes the listeners.
func (m *MemoryStore) commit(out []Appended) {
	for i := range out {
		if !out[i].Wrote() {
			continue
		}
		evs := out[i].Events
		first := len(m.all)
		stream := evs[0].Stream
		for j := range evs {
			m.all = append(m.all, evs[j])
			m.streams[stream] = append(m.streams[stream], first+j)
		}
		if key := evs[0].Meta.IdempotencyKey; key != "" {
			if m.keys[stream] == nil {
				m.keys[stream] = map[string]span{}
			}
			m.keys[stream][key] = span{first: first, n: len(evs)}
		}
		out[i].Events = cloneEvents(evs)
	}
	for c := range m.waiters {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// span is one append's events: all[first : first+n].
type span struct{ first, n int }

// ReadStream implements Store.ReadStream.
func (m *MemoryStore) ReadStream(ctx context.Context, stream string, from int64) ([]Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	idx := m.streams[stream]
	if from < 1 {
		from = 1
	}
	if from > int64(len(idx)) {
		return []Event{}, nil
	}
	out := make([]Event, 0, int64(len(idx))-from+1)
	for _, i := range idx[from-1:] {
		out = append(out, cloneEvent(m.all[i]))
	}
	return out, nil
}

// ReadAll implements Store.ReadAll. Every append is visible as soon as it
// returns, so the memory store never holds events back. It returns an *Error
// with CodeInvalid when limit is not positive.
func (m *MemoryStore) ReadAll(ctx context.Context, after int64, limit int) ([]Event, error) {
	if limit <= 0 {
		return nil, Errorf(CodeInvalid, "limit %d is not positive", limit)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if after < 0 {
		after = 0
	}
	if after >= int64(len(m.all)) {
		return []Event{}, nil
	}
	rest := m.all[after:]
	if len(rest) > limit {
		rest = rest[:limit]
	}
	return cloneEvents(rest), nil
}

// Notify implements Store.Notify. The channel is closed when ctx ends.
func (m *MemoryStore) Notify(ctx context.Context) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := make(chan struct{}, 1)
	m.mu.Lock()
	m.waiters[c] = struct{}{}
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		delete(m.waiters, c)
		m.mu.Unlock()
		close(c)
	}()
	return c, nil
}

// Verify implements Store.Verify.
func (m *MemoryStore) Verify(ctx context.Context, stream string, key *CommitKey) error {
	evs, err := m.ReadStream(ctx, stream, 1)
	if err != nil {
		return err
	}
	return VerifyChain(stream, evs, key)
}

// cloneEvent returns e with its own copies of the byte slices, so that a
// caller that changes what it got cannot change the store.
func cloneEvent(e Event) Event {
	e.Data = slices.Clone(e.Data)
	e.PrevHash = slices.Clone(e.PrevHash)
	e.Hash = slices.Clone(e.Hash)
	return e
}

func cloneEvents(evs []Event) []Event {
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = cloneEvent(e)
	}
	return out
}
