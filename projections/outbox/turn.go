package outbox

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Turn is a your-turn email a game owes, kept on its games row
// (games.turn_mail, migration 0101) instead of in the outbox: a later move
// replaces or drops it, and only the one still owed when its grace ends
// becomes an outbox row (TurnRows), written by the mail worker.
//
// The projector writes DelayUS (the Row's Delay); the game's UPDATE stamps
// AtUS and DueUS with the transaction's clock, as the outbox's own
// created_at and next_attempt_at are.
//
// Payload is the email's payload packed (Packer): a JSON string, the
// payload's JSON deflated and in base64, or (as the first rows of 0101
// were written) the payload's JSON object itself. Every move rewrites the
// turn_mail it owes, and the WAL logs it whole: a Lords your-turn payload
// with its fifteen legal moves takes 805 bytes as JSON, 471 packed.
type Turn struct {
	Seat    int             `json:"seat"`
	Version int64           `json:"version"`
	DelayUS int64           `json:"delay_us,omitempty"`
	AtUS    int64           `json:"at_us,omitempty"`
	DueUS   int64           `json:"due_us,omitempty"`
	Payload json.RawMessage `json:"payload"`
}

// Packer packs the payloads of the your-turn emails a move owes
// (TurnsJSON), reusing its deflate writers: a new one costs about 1.2 MB
// and 0.8 ms, more than the rest of a move in the server, a reused one
// 7 µs. The zero value is ready; it is safe for concurrent use.
//
// Its writers wait in a free list of its own rather than a sync.Pool: a
// pool may drop what it holds at any garbage collection (and, under the
// race detector, at random), so a move would pay for a new writer now and
// then; the list keeps at most maxIdleWriters, about one a core.
type Packer struct {
	mu   sync.Mutex
	idle []*flate.Writer
}

// maxIdleWriters bounds the writers a Packer keeps (about 1.2 MB each).
const maxIdleWriters = 8

// get takes an idle writer writing to z, or makes one.
func (k *Packer) get(z *bytes.Buffer) (*flate.Writer, error) {
	k.mu.Lock()
	var w *flate.Writer
	if n := len(k.idle); n > 0 {
		w, k.idle = k.idle[n-1], k.idle[:n-1]
	}
	k.mu.Unlock()
	if w == nil {
		return flate.NewWriter(z, flate.BestSpeed)
	}
	w.Reset(z)
	return w, nil
}

// put gives w back for the next pack.
func (k *Packer) put(w *flate.Writer) {
	k.mu.Lock()
	if len(k.idle) < maxIdleWriters {
		k.idle = append(k.idle, w)
	}
	k.mu.Unlock()
}

// TurnsJSON is the JSON array of the your-turn rows a move owes, as the
// game's UPDATE takes it (nil for none), each payload packed: its JSON
// deflated, in base64, as a JSON string. Every row must be a YourTurn row
// to a seat.
func (k *Packer) TurnsJSON(rows []Row) ([]byte, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	out := make([]Turn, len(rows))
	for i, r := range rows {
		if r.Kind != YourTurn || r.Seat == nil {
			return nil, fmt.Errorf("outbox: a %s email is not a turn owed by its game", r.Kind)
		}
		p, err := k.pack(r.Payload)
		if err != nil {
			return nil, fmt.Errorf("outbox: turn of game %s: %w", r.GameID, err)
		}
		out[i] = Turn{Seat: *r.Seat, Version: r.EventVersion, DelayUS: r.Delay.Microseconds(), Payload: p}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("outbox: turns of game %s: %w", rows[0].GameID, err)
	}
	return b, nil
}

// pack returns p packed as a Turn holds it.
func (k *Packer) pack(p Payload) (json.RawMessage, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	w, err := k.get(&z)
	if err != nil {
		return nil, err
	}
	defer k.put(w)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return json.Marshal(base64.RawStdEncoding.EncodeToString(z.Bytes()))
}

// UnpackPayload reads a payload a Packer packed, or a payload's JSON
// object as it is.
func UnpackPayload(packed json.RawMessage) (Payload, error) {
	var p Payload
	raw := []byte(packed)
	if len(packed) > 0 && packed[0] == '"' {
		var s string
		if err := json.Unmarshal(packed, &s); err != nil {
			return p, err
		}
		z, err := base64.RawStdEncoding.DecodeString(s)
		if err != nil {
			return p, err
		}
		if raw, err = io.ReadAll(flate.NewReader(bytes.NewReader(z))); err != nil {
			return p, err
		}
	}
	err := json.Unmarshal(raw, &p)
	return p, err
}

// TurnRows reads the turn_mail array of game id and returns the outbox
// rows of its elements due at now (due_us at or before it), and the
// elements that stay owed, as JSON (nil: none).
func TurnRows(id string, turnMail []byte, now time.Time) (due []Row, rest []byte, err error) {
	var turns []Turn
	if len(turnMail) > 0 {
		if err := json.Unmarshal(turnMail, &turns); err != nil {
			return nil, nil, fmt.Errorf("outbox: turn mail of game %s: %w", id, err)
		}
	}
	var left []Turn
	for _, t := range turns {
		if t.DueUS > now.UnixMicro() {
			left = append(left, t)
			continue
		}
		p, err := UnpackPayload(t.Payload)
		if err != nil {
			return nil, nil, fmt.Errorf("outbox: turn mail of game %s, seat %d: %w", id, t.Seat, err)
		}
		at := time.UnixMicro(t.AtUS).UTC()
		due = append(due, Row{GameID: id, Seat: new(t.Seat), Kind: YourTurn, Payload: p,
			EventVersion: t.Version, At: at, Delay: time.UnixMicro(t.DueUS).Sub(at)})
	}
	if len(left) > 0 {
		if rest, err = json.Marshal(left); err != nil {
			return nil, nil, fmt.Errorf("outbox: turn mail of game %s: %w", id, err)
		}
	}
	return due, rest, nil
}
