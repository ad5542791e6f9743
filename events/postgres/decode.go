package postgres

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"pbem/events"
)

// decoder turns the raw values of a selectEvents row into an Event without
// pgx's generic Scan: reading a stream or the log is mostly decoding, and
// this cuts its CPU time and allocations by more than half
// (BenchmarkReadStream, BenchmarkReadAll). It is used only when the server
// sent every column in the expected format (see newDecoder); otherwise
// scanEvents falls back to Scan.
type decoder struct {
	// strings interns the repeated short strings (stream ids, types, actors)
	// of one result.
	strings map[string]string
	// arena is carved into the events' byte slices, to allocate in chunks.
	arena []byte
}

// Column formats decode expects: binary integers, timestamps and hashes;
// text and json are raw bytes in either format.
var expectedFormats = [...]struct {
	oid    uint32
	binary bool
}{
	{pgtype.Int8OID, true}, {pgtype.TextOID, false}, {pgtype.Int8OID, true}, {pgtype.TextOID, false},
	{pgtype.JSONOID, false}, {pgtype.TextOID, false}, {pgtype.TextOID, false}, {pgtype.TextOID, false},
	{pgtype.TimestamptzOID, true}, {pgtype.ByteaOID, true},
}

// newDecoder reports whether fields are what decode handles.
func newDecoder(fields []pgconn.FieldDescription) (*decoder, bool) {
	if len(fields) != len(expectedFormats) {
		return nil, false
	}
	for i, f := range fields {
		want := expectedFormats[i]
		if f.DataTypeOID != want.oid || (want.binary && f.Format != pgtype.BinaryFormatCode) {
			return nil, false
		}
	}
	return &decoder{strings: map[string]string{}}, true
}

// pgEpoch is PostgreSQL's timestamp origin, 2000-01-01 UTC, in Unix
// microseconds.
const pgEpoch = 946684800000000

func (d *decoder) decode(v [][]byte, e *events.Event) error {
	if len(v) != len(expectedFormats) {
		return fmt.Errorf("row has %d columns", len(v))
	}
	for _, i := range []int{0, 2, 8} {
		if len(v[i]) != 8 {
			return fmt.Errorf("column %d is %d bytes long, want 8", i, len(v[i]))
		}
	}
	e.Position = int64(binary.BigEndian.Uint64(v[0]))
	e.Stream = d.intern(v[1])
	e.Version = int64(binary.BigEndian.Uint64(v[2]))
	e.Type = d.intern(v[3])
	e.Data = d.bytes(v[4])
	e.Meta.Actor = d.intern(v[5])
	e.Meta.RequestID = d.intern(v[6])
	e.Meta.IdempotencyKey = d.intern(v[7])
	e.RecordedAt = time.UnixMicro(pgEpoch + int64(binary.BigEndian.Uint64(v[8]))).UTC()
	e.Hash = d.bytes(v[9])
	return nil
}

// intern returns b as a string, shared with earlier equal strings of the
// same result.
func (d *decoder) intern(b []byte) string {
	if s, ok := d.strings[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.strings) < 1000 {
		d.strings[s] = s
	}
	return s
}

// bytes returns a copy of b carved from the arena, with its capacity capped
// so that appending to it cannot overwrite its neighbour.
func (d *decoder) bytes(b []byte) []byte {
	if len(b) > 4096 {
		return append([]byte(nil), b...)
	}
	if len(d.arena)+len(b) > cap(d.arena) {
		d.arena = make([]byte, 0, 64*1024)
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return d.arena[start:len(d.arena):len(d.arena)]
}
