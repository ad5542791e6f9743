package events

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on what an append may hold. They keep a bad caller from writing
// something no reader can handle; MaxAppend also bounds the positions one
// append uses in the Postgres store.
const (
	// MaxAppend is the most events one Append may write.
	MaxAppend = 10000
	// MaxStreamLen is the longest stream id, in bytes.
	MaxStreamLen = 200
	// MaxTypeLen is the longest event type, in bytes.
	MaxTypeLen = 200
)

// Prepare validates an append and returns the events to store, without
// Position, PrevHash and Hash: Stream, Version (expected+1, expected+2...),
// Type, Data in canonical form (see CanonicalJSON), Meta and RecordedAt (now,
// UTC, microseconds). Every Store uses it, so that all of them accept and
// refuse the same input.
//
// It returns an *Error with CodeInvalid for an empty or over-long stream id,
// a negative expected version, no events or more than MaxAppend, an empty
// type, data that is not one JSON value, and text that PostgreSQL cannot
// store (invalid UTF-8, NUL bytes).
func Prepare(stream string, expected int64, evs []NewEvent, now time.Time) ([]Event, error) {
	if err := checkText("stream id", stream, MaxStreamLen); err != nil {
		return nil, err
	}
	if expected < 0 {
		return nil, Errorf(CodeInvalid, "expected version %d is negative", expected)
	}
	if len(evs) == 0 {
		return nil, Errorf(CodeInvalid, "no events to append")
	}
	if len(evs) > MaxAppend {
		return nil, Errorf(CodeInvalid, "%d events in one append (at most %d)", len(evs), MaxAppend)
	}
	now = now.UTC().Truncate(time.Microsecond)
	out := make([]Event, len(evs))
	for i, ne := range evs {
		if err := checkText("event type", ne.Type, MaxTypeLen); err != nil {
			return nil, indexed(i, err)
		}
		for _, f := range []struct{ name, v string }{
			{"meta actor", ne.Meta.Actor},
			{"meta request id", ne.Meta.RequestID},
			{"meta idempotency key", ne.Meta.IdempotencyKey},
		} {
			if f.v == "" {
				continue
			}
			if err := checkText(f.name, f.v, 1000); err != nil {
				return nil, indexed(i, err)
			}
		}
		data, err := CanonicalJSON(ne.Data)
		if err != nil {
			return nil, indexed(i, err)
		}
		out[i] = Event{
			Stream:     stream,
			Version:    expected + int64(i) + 1,
			Type:       ne.Type,
			Data:       data,
			Meta:       ne.Meta,
			RecordedAt: now,
		}
	}
	return out, nil
}

// checkText refuses an empty, over-long, non-UTF-8 or NUL-holding string.
func checkText(name, s string, max int) error {
	switch {
	case s == "":
		return Errorf(CodeInvalid, "%s is empty", name)
	case len(s) > max:
		return Errorf(CodeInvalid, "%s is %d bytes long (at most %d)", name, len(s), max)
	case !utf8.ValidString(s):
		return Errorf(CodeInvalid, "%s is not valid UTF-8", name)
	case strings.IndexByte(s, 0) >= 0:
		return Errorf(CodeInvalid, "%s holds a NUL byte", name)
	}
	return nil
}

// indexed prefixes an *Error's message with the event's index.
func indexed(i int, err error) error {
	if e, ok := err.(*Error); ok {
		return Errorf(e.Code, "event %d: %s", i, e.Message)
	}
	return err
}

// CheckBatch checks what Store.AppendBatch refuses as a whole: an empty
// batch, or two appends to one stream.
func CheckBatch(appends []Append) error {
	if len(appends) == 0 {
		return Errorf(CodeInvalid, "a batch needs at least one append")
	}
	seen := make(map[string]bool, len(appends))
	for _, a := range appends {
		if seen[a.Stream] {
			return Errorf(CodeInvalid, "stream %q appears twice in one batch", a.Stream)
		}
		seen[a.Stream] = true
	}
	return nil
}
