package outbox

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Turn is a your-turn email a game owes, kept on its games row
// (games.turn_mail, migrations 0101 and 0105) instead of in the outbox: a
// later move replaces or drops it, and only the one still owed when its
// grace ends becomes an outbox row, written by the mail worker.
//
// The row owes the email by what identifies it, not by its payload: every
// move rewrites the row and the WAL logs it whole, and a Lords your-turn
// payload with its fifteen legal moves took 805 bytes as JSON (471
// deflated). The worker builds the payload when it claims the turn
// (projections.TurnRow), from the game as it stands then.
//
// The projector writes Seat, Version, From and DelayUS; the game's UPDATE
// stamps AtUS and DueUS with the transaction's clock, as the outbox's own
// created_at and next_attempt_at are.
type Turn struct {
	Seat int `json:"seat"`
	// Version is the game's version the email is about: the one that made
	// the seat awaited. From is the first version of that append: the
	// email tells the events From to Version.
	Version int64 `json:"version"`
	From    int64 `json:"from,omitempty"`
	DelayUS int64 `json:"delay_us,omitempty"`
	AtUS    int64 `json:"at_us,omitempty"`
	DueUS   int64 `json:"due_us,omitempty"`
	// Payload is set only in an element the previous releases wrote
	// (migrations 0101 to 0104): the payload's JSON, or a JSON string of
	// it deflated and in base64. The worker sends it as it is.
	Payload json.RawMessage `json:"payload,omitempty"`
}

// FirstVersion is the first version of the append that owed t (From;
// Version for an element without it).
func (t Turn) FirstVersion() int64 {
	if t.From == 0 {
		return t.Version
	}
	return t.From
}

// Due is when t's grace ends.
func (t Turn) Due() time.Time { return time.UnixMicro(t.DueUS).UTC() }

// Row is the outbox row of t for game id with payload p: written when t
// was owed, sendable when its grace ends.
func (t Turn) Row(id string, p Payload) Row {
	at := time.UnixMicro(t.AtUS).UTC()
	return Row{GameID: id, Seat: new(t.Seat), Kind: YourTurn, Payload: p,
		EventVersion: t.Version, At: at, Delay: t.Due().Sub(at)}
}

// TurnsJSON is the JSON array of the your-turn emails a move owes, as the
// game's UPDATE takes it (nil for none).
func TurnsJSON(id string, turns []Turn) ([]byte, error) {
	if len(turns) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(turns)
	if err != nil {
		return nil, fmt.Errorf("outbox: turns of game %s: %w", id, err)
	}
	return b, nil
}

// UnpackPayload reads the payload of an element a previous release wrote
// (Turn.Payload): a payload's JSON object, or a JSON string of it
// deflated and in base64.
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

// DueTurns reads the turn_mail array of game id and returns its elements
// due at now (due_us at or before it), and the elements that stay owed,
// as JSON (nil: none).
func DueTurns(id string, turnMail []byte, now time.Time) (due []Turn, rest []byte, err error) {
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
		due = append(due, t)
	}
	if len(left) > 0 {
		if rest, err = json.Marshal(left); err != nil {
			return nil, nil, fmt.Errorf("outbox: turn mail of game %s: %w", id, err)
		}
	}
	return due, rest, nil
}
