package outbox

import (
	"encoding/json"
	"fmt"
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
type Turn struct {
	Seat    int     `json:"seat"`
	Version int64   `json:"version"`
	DelayUS int64   `json:"delay_us,omitempty"`
	AtUS    int64   `json:"at_us,omitempty"`
	DueUS   int64   `json:"due_us,omitempty"`
	Payload Payload `json:"payload"`
}

// TurnsJSON is the JSON array of the your-turn rows a move owes, as the
// game's UPDATE takes it (nil for none). Every row must be a YourTurn row
// to a seat.
func TurnsJSON(rows []Row) ([]byte, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	out := make([]Turn, len(rows))
	for i, r := range rows {
		if r.Kind != YourTurn || r.Seat == nil {
			return nil, fmt.Errorf("outbox: a %s email is not a turn owed by its game", r.Kind)
		}
		out[i] = Turn{Seat: *r.Seat, Version: r.EventVersion, DelayUS: r.Delay.Microseconds(), Payload: r.Payload}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("outbox: turns of game %s: %w", rows[0].GameID, err)
	}
	return b, nil
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
		at := time.UnixMicro(t.AtUS).UTC()
		due = append(due, Row{GameID: id, Seat: new(t.Seat), Kind: YourTurn, Payload: t.Payload,
			EventVersion: t.Version, At: at, Delay: time.UnixMicro(t.DueUS).Sub(at)})
	}
	if len(left) > 0 {
		if rest, err = json.Marshal(left); err != nil {
			return nil, nil, fmt.Errorf("outbox: turn mail of game %s: %w", id, err)
		}
	}
	return due, rest, nil
}
