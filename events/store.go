package events

import (
	"context"
	"encoding/json"
	"time"
)

// Metadata says who caused an event and on which request.
type Metadata struct {
	// Actor is who acted: "seat:2", "admin", "system" (timeouts).
	Actor string `json:"actor,omitempty"`
	// RequestID ties the event to a request's log lines.
	RequestID string `json:"request_id,omitempty"`
	// IdempotencyKey makes an append retryable: an append whose key the
	// stream already holds returns the first append's events and writes nothing.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// NewEvent is an event to append.
type NewEvent struct {
	Type string
	Data json.RawMessage
	Meta Metadata
}

// Event is a stored event.
type Event struct {
	// Position is the event's place in the global log (strictly increasing
	// with commit visibility; see Store.ReadAll). Positions are ordered, not
	// dense: the Postgres store leaves gaps between them.
	Position int64 `json:"position"`
	// Stream is the stream id (a game's id).
	Stream string `json:"stream"`
	// Version is 1 for a stream's first event, 2 for the next...
	Version int64           `json:"version"`
	Type    string          `json:"type"`
	Data    json.RawMessage `json:"data"`
	Meta    Metadata        `json:"meta"`
	// RecordedAt is when the store accepted the event (UTC, microseconds).
	RecordedAt time.Time `json:"recorded_at"`
	// PrevHash is the previous event's Hash (32 zero bytes for version 1).
	PrevHash []byte `json:"prev_hash"`
	// Hash is SHA-256(PrevHash || canonical bytes of the event) in its
	// stream's format (see the package doc).
	Hash []byte `json:"hash"`
}

// Tx is the store's transaction, handed to an AppendHook or a BatchHook so
// that callers write their projections and outbox rows in the same
// transaction as the events. The memory store has no SQL and passes nil.
type Tx interface {
	// Defer queues a statement to be sent with the transaction's COMMIT,
	// in the same round trip, after the events and the statements queued
	// before it. Its result is not returned: it must check what it needs
	// in SQL and raise an error otherwise. Its error fails the append,
	// which returns it wrapped, and nothing is committed.
	Defer(sql string, args ...any)
}

// AppendHook runs inside the append's transaction, after the events are
// written. If it returns an error, nothing is written and Append returns that
// error unchanged.
type AppendHook func(ctx context.Context, tx Tx, appended []Event) error

// Append is one append of a batch (see Store.AppendBatch): events for one
// stream, at an expected version (0 for a new stream).
type Append struct {
	Stream   string
	Expected int64
	Events   []NewEvent
	// Key is the stream's commitment key: the events are hashed in
	// format 2 with it, in format 1 without it (nil; streams begun before
	// commitments). Every append to a stream passes the same key.
	Key *CommitKey
}

// Appended is how one Append of a batch went.
type Appended struct {
	// Events are the stored events: those this batch wrote or, when
	// Replayed, those of the earlier append that holds the same
	// idempotency key. Nil when Err is set.
	Events []Event
	// Replayed means the first event's IdempotencyKey was appended to the
	// stream before: nothing was written, Events are the first append's.
	Replayed bool
	// Err is nil, or *Error with CodeConflict (the stream is not at the
	// expected version, a lost race included) or CodeInvalid (bad input):
	// this append wrote nothing.
	Err error
}

// CopyAppended returns a deep copy of out (nil event lists stay nil), for
// a hook, which may keep or change what it is given.
func CopyAppended(out []Appended) []Appended {
	v := make([]Appended, len(out))
	for i, o := range out {
		v[i] = o
		if o.Events != nil {
			v[i].Events = cloneEvents(o.Events)
		}
	}
	return v
}

// Wrote reports whether this batch wrote the append's events.
func (a *Appended) Wrote() bool { return a.Err == nil && !a.Replayed }

// BatchHook runs inside a batch's transaction after its events are written;
// out[i] is how appends[i] went (see Appended.Wrote). If it returns an
// error, nothing of the batch is written and AppendBatch returns that error
// unchanged.
type BatchHook func(ctx context.Context, tx Tx, out []Appended) error

// Store is an append-only log of event streams.
type Store interface {
	// Append writes evs to stream in one transaction, if the stream's current
	// version is expected (0 for a new stream). It returns the stored events.
	// Errors: *Error with CodeConflict when the version moved on (including a
	// lost race), CodeInvalid for bad input (empty stream id, negative
	// expected version, no events, data that is not a JSON object or value).
	// If the first event's IdempotencyKey was already appended to this
	// stream, Append returns the events of that first append and writes nothing.
	// Append hashes in format 1 (no key; see the package doc): the game
	// service appends with AppendBatch and its stream's key.
	Append(ctx context.Context, stream string, expected int64, evs []NewEvent, hooks ...AppendHook) ([]Event, error)
	// AppendBatch writes several appends, each to a different stream, in
	// one transaction with one commit: the store's group commit. Each append
	// succeeds or fails on its own, as Append would (out[i] says how
	// appends[i] went); the hook runs once, inside the transaction, after
	// the events of the appends that succeeded are written, and may write
	// their projections. Errors (the whole batch wrote nothing): *Error
	// with CodeInvalid when two appends name the same stream or the batch
	// is empty, the hook's error unchanged, ctx's error, or a database
	// error. An append with bad input (as Append's CodeInvalid) fails alone.
	AppendBatch(ctx context.Context, appends []Append, hook BatchHook) ([]Appended, error)
	// ReadStream returns stream's events with Version >= from, in order.
	// An unknown stream gives an empty slice, not an error.
	ReadStream(ctx context.Context, stream string, from int64) ([]Event, error)
	// ReadAll returns up to limit events of the global log with Position >
	// after, in position order. It never skips an event that commits late:
	// it returns only events below every still-running append.
	ReadAll(ctx context.Context, after int64, limit int) ([]Event, error)
	// Notify returns a channel that receives a value (coalesced) after any
	// append commits, until ctx ends. Live readers select on it.
	Notify(ctx context.Context) (<-chan struct{}, error)
	// Verify checks stream's hash chain with the stream's commitment key
	// (nil for a format-1 stream; see VerifyChain) and returns nil, or a
	// *ChainError naming the first event whose hash does not match.
	Verify(ctx context.Context, stream string, key *CommitKey) error
}
