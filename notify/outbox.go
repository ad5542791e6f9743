package notify

import (
	"context"
	"encoding/json"
	"pbem/projections/outbox"
	"time"
)

// Row is an outbox row as a worker claims it.
type Row struct {
	ID     int64
	GameID string
	// Seat is the recipient's seat, or -1 when the row is not for a seat.
	Seat         int
	Kind         outbox.Kind
	Payload      json.RawMessage
	EventVersion int64
	CreatedAt    time.Time
	// Attempts counts claims of this row, this one included.
	Attempts int
	// Story is what the worker's SeatReader read for the row's seat when
	// it was claimed (nil: none, and deadlines are told in UTC).
	Story *Story
	// Passed, when not empty, says why the call to move that the row's
	// payload carries is out of date (a Stale reason): the email is still
	// sent, for the rest of what it tells (a round's summary), but without
	// the moves, the deadline and the reply's choice (see fresh).
	Passed string
	// RoundAt, for a round-end email whose call to move stands, is the
	// version of the round's end it tells (its own), when fresh moved its
	// EventVersion on to tell its story up to the game as it stands (0:
	// EventVersion is that version).
	RoundAt int64
}

// Status is an outbox row's state.
type Status string

// Outbox row states.
const (
	Pending Status = "pending"
	Sent    Status = "sent"
	Failed  Status = "failed"
	// Skipped rows were not sent because of the recipient's preference.
	Skipped Status = "skipped"
)

// Outcome is what became of a claimed row.
type Outcome struct {
	ID     int64
	Status Status
	// MessageID is the Message-ID the email went out with (Sent).
	MessageID string
	// Error is the last error (Pending: retried at NextAttempt; Failed), or
	// the reason a row was skipped.
	Error       string
	NextAttempt time.Time
	// EventVersion, if above 0, is the game version a sent email told up
	// to (a your-turn email's story, a table-talk email's lines), kept in
	// the row so that the next table-talk email starts after it.
	EventVersion int64
}

// FailedEmail is an email that could not be sent, as the game's admin sees
// it: no payload, no link. Status says whether it is still retried
// (EmailWaiting, until NextAttempt) or was given up (EmailFailed).
type FailedEmail struct {
	ID          int64       `json:"id"`
	Seat        int         `json:"seat"`
	Kind        outbox.Kind `json:"kind"`
	To          string      `json:"to"`
	Status      string      `json:"status"`
	Attempts    int         `json:"attempts"`
	LastError   string      `json:"last_error"`
	NextAttempt *time.Time  `json:"next_attempt,omitempty"`
	CreatedAt   time.Time   `json:"created_at"`
}

// FailedEmail.Status values.
const (
	// EmailWaiting: a send failed for a temporary reason; it is tried
	// again at NextAttempt.
	EmailWaiting = "waiting"
	// EmailFailed: given up (a permanent refusal, or WorkerConfig.RetryFor
	// spent).
	EmailFailed = "failed"
)

// OutboxStore is the outbox as the worker uses it. The Postgres
// implementation is notify/postgres.Outbox.
type OutboxStore interface {
	// Claim takes up to limit due pending rows (next_attempt_at <= now)
	// that no other worker holds, pushes their next_attempt_at to now+lease,
	// counts the attempt, and commits before returning.
	Claim(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]Row, error)
	// Finish records the outcomes of claimed rows at now.
	Finish(ctx context.Context, now time.Time, outcomes []Outcome) error
	// Release gives back claimed rows that were not sent: each is due at
	// now again and its claim is not counted as an attempt, unless another
	// worker has claimed it since (its lease ran out) or it is no longer
	// pending.
	Release(ctx context.Context, now time.Time, rows []Row) error
	// Failed lists the emails of a game that failed, and those waiting to
	// be tried again after a failed send, newest first.
	Failed(ctx context.Context, gameID string) ([]FailedEmail, error)
}
