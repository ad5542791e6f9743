package outbox

import (
	"encoding/json"
	"fmt"
	"time"
)

// Row is an email owed: one outbox row to write, in the transaction of
// what causes it. Its Payload never holds a token, a seed or a hidden card.
type Row struct {
	GameID string
	// Seat is the recipient's seat; nil for an email to no seat (the
	// organiser's links, a sign-in link, a digest).
	Seat    *int
	Kind    Kind
	Payload Payload
	// EventVersion is the game version the email is about; 0: none.
	EventVersion int64
	// At is when the row is written: the game service sets its clock's
	// time (the clock its outbox worker keeps); zero: the database's now().
	At time.Time
	// Delay is how long after At the email may be sent: the mail grace of
	// a move its seat may still take back (0: at once).
	Delay time.Duration
}

// insertSQL writes rows given as arrays, one element per row, and
// returns their ids. It is the only statement that adds an email to send
// to the outbox (a take-back records the your-turn emails its game row
// owed as skipped rows: projections/postgres's recordTurnsSQL).
const insertSQL = `INSERT INTO outbox (game_id, seat, kind, payload, event_version, created_at, next_attempt_at)
SELECT m.game_id, m.seat, m.kind, m.payload, nullif(m.event_version, 0), coalesce(m.at, now()),
	coalesce(m.at, now()) + m.delay * interval '1 microsecond'
FROM unnest($1::text[], $2::int[], $3::text[], $4::json[], $5::bigint[], $6::timestamptz[], $7::bigint[])
	AS m(game_id, seat, kind, payload, event_version, at, delay)
RETURNING id`

// Insert returns the statement that writes rows to the outbox and its
// arguments, for the writer to run in its own transaction (Exec, a
// batch, or a query reading the new ids). Every writer of the outbox uses
// it: the projector's batches (projections/postgres), the organiser's and
// sign-in emails, the scheduler's reminders and digests and the mail
// listener's answers (notify/postgres).
func Insert(rows ...Row) (sql string, args []any, err error) {
	n := len(rows)
	game, seat, kind, payload := make([]string, n), make([]*int32, n), make([]string, n), make([]string, n)
	version, at, delay := make([]int64, n), make([]*time.Time, n), make([]int64, n)
	for i, r := range rows {
		if !r.Kind.Valid() {
			return "", nil, fmt.Errorf("outbox: unknown kind %q", r.Kind)
		}
		b, err := json.Marshal(r.Payload)
		if err != nil {
			return "", nil, fmt.Errorf("outbox: %s email of game %s: %w", r.Kind, r.GameID, err)
		}
		if r.Seat != nil {
			seat[i] = new(int32(*r.Seat))
		}
		if !r.At.IsZero() {
			at[i] = &r.At
		}
		game[i], kind[i], payload[i], version[i], delay[i] = r.GameID, string(r.Kind), string(b), r.EventVersion, r.Delay.Microseconds()
	}
	return insertSQL, []any{game, seat, kind, payload, version, at, delay}, nil
}
