package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// HashSize is the length of an event hash (SHA-256) in bytes.
const HashSize = sha256.Size

// GenesisHash returns the PrevHash of a stream's first event: 32 zero bytes.
func GenesisHash() []byte { return make([]byte, HashSize) }

// CanonicalJSON returns the canonical form of a JSON value: compact (no
// insignificant white space), object members sorted by key (byte order of
// their UTF-8 encoding), strings escaped the way encoding/json does without
// HTML escaping, and numbers kept as written (1.0 stays 1.0). When an object
// repeats a key, the last member wins, as in encoding/json.
//
// The stores keep and return event data in this form, so that the hash of an
// event can be recomputed from what is stored. It returns an *Error with
// CodeInvalid when data is not a single JSON value.
func CanonicalJSON(data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, Errorf(CodeInvalid, "data is empty (want a JSON value)")
	}
	if out, ok := canonicalFast(data); ok {
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Errorf(CodeInvalid, "data is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, Errorf(CodeInvalid, "data is not one JSON value (more follows it)")
	}
	var buf bytes.Buffer
	buf.Grow(len(data))
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// encoding/json writes map keys sorted and json.Number verbatim.
	if err := enc.Encode(v); err != nil {
		return nil, Errorf(CodeInvalid, "data cannot be encoded: %v", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Canonical returns the format-1 canonical bytes of an event (a stream
// without a CommitKey: see the package doc), everything but its position
// and hashes: a compact JSON object with sorted keys
//
//	{"data":<CanonicalJSON(Data)>,"meta":{"actor":"…","idempotency_key":"…","request_id":"…"},
//	 "recorded_at":<RecordedAt as Unix microseconds, UTC>,"stream":"…","type":"…","version":N}
//
// (on one line). Hash = SHA-256(PrevHash || Canonical(e)); see ChainHash.
// A format-2 stream hashes CanonicalCommitted instead.
// It returns an *Error with CodeInvalid when e.Data is not valid JSON.
func Canonical(e *Event) ([]byte, error) {
	data, err := CanonicalJSON(e.Data)
	if err != nil {
		return nil, err
	}
	return canonical(e, data), nil
}

// CanonicalPrepared is Canonical for an event whose Data is known to be in
// canonical form already, as Prepare returns it: it skips normalising the
// data again. Given other data, its result matches no hash.
func CanonicalPrepared(e *Event) []byte { return canonical(e, e.Data) }

// canonical builds the format-1 canonical bytes of e around its canonical
// data.
func canonical(e *Event, data []byte) []byte {
	b := make([]byte, 0, len(data)+len(e.Stream)+len(e.Type)+len(e.Meta.Actor)+len(e.Meta.RequestID)+len(e.Meta.IdempotencyKey)+160)
	b = append(b, `{"data":`...)
	b = append(b, data...)
	return appendEnvelope(b, e)
}

// appendEnvelope appends the members after the data (or its commitment),
// and the closing brace, to b: meta, recorded_at, stream, type, version.
func appendEnvelope(b []byte, e *Event) []byte {
	b = append(b, `,"meta":{"actor":`...)
	b = appendString(b, e.Meta.Actor)
	b = append(b, `,"idempotency_key":`...)
	b = appendString(b, e.Meta.IdempotencyKey)
	b = append(b, `,"request_id":`...)
	b = appendString(b, e.Meta.RequestID)
	b = append(b, `},"recorded_at":`...)
	b = strconv.AppendInt(b, e.RecordedAt.UTC().UnixMicro(), 10)
	b = append(b, `,"stream":`...)
	b = appendString(b, e.Stream)
	b = append(b, `,"type":`...)
	b = appendString(b, e.Type)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, e.Version, 10)
	return append(b, '}')
}

// ChainHash returns SHA-256(prev || canonical): the hash of an event whose
// predecessor's hash is prev and whose canonical bytes (see Canonical) are
// canonical.
func ChainHash(prev, canonical []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write(canonical)
	return h.Sum(nil)
}

// appendString appends s as a JSON string, escaped like CanonicalJSON does.
// Printable ASCII without quote or backslash (stream ids, types, actors)
// needs no escape and skips the encoder.
func appendString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// Encoding a string cannot fail; keep the output well-formed anyway.
		return append(b, strconv.Quote(s)...)
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// RecordedNow returns the current time as the stores record it: UTC,
// truncated to microseconds (what PostgreSQL keeps).
func RecordedNow() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// hashEqual reports whether a and b are the same hash.
func hashEqual(a, b []byte) bool { return bytes.Equal(a, b) }

// describe formats a hash for error messages.
func describe(h []byte) string {
	if len(h) == 0 {
		return "(none)"
	}
	return fmt.Sprintf("%x", h)
}
