package notify

import (
	"context"
	"pbem/projections/outbox"
)

// Emails that are true when read (issue #30). A your-turn email or a
// reminder waits in the outbox (the mail grace, a retry) while the game goes
// on: its player may have moved on the page meanwhile, or a bot may have
// answered and the turn come back with another list. Just before sending,
// the worker asks its Freshness for the news of each such row:
//
//   - stale (the seat is no longer awaited, it played since the email's
//     version, or a newer your-turn email or reminder to that seat is
//     waiting): the row is not sent; it is recorded as skipped with the
//     reason, for the record;
//   - fresh: it is sent, and its story is told up to the game's version now,
//     so that moves that followed each other within the grace (a bot
//     replying at once) are told by this one email.
//
// With the grace on every move's emails (projections.Projector.MailGrace),
// this gives at most one your-turn email per turn of a person, and none
// whose list of moves is out of date when it is sent.

// News is what Freshness tells of a claimed row.
type News struct {
	// Stale, if not empty, says why the row must not be sent.
	Stale string
	// Version is the game's version now: a fresh your-turn email tells its
	// story up to it (0: unknown, the row's own version is kept).
	Version int64
}

// Freshness reads, just before sending, whether claimed rows still tell
// the truth. notify/postgres.Outbox implements it.
type Freshness interface {
	// Freshness returns the News of each row (in its order). Rows of kinds
	// that do not await a move (Kind.Awaits) are always fresh.
	Freshness(ctx context.Context, rows []Row) ([]News, error)
}

// Stale reasons, recorded in a skipped row's last_error.
const (
	StaleNotAwaited = "stale: the seat is no longer awaited"
	StalePlayed     = "stale: the seat played since"
	StaleSuperseded = "stale: a newer email to the seat is waiting"
)

// fresh drops the stale rows of rows (recorded as skipped outcomes in
// early) and moves the story of each fresh your-turn email up to the
// game's version; it returns the rows to send.
func (w *Worker) fresh(ctx context.Context, rows []Row) (keep []Row, early []Outcome, err error) {
	if w.c.Freshness == nil {
		return rows, nil, nil
	}
	var asked []Row
	var at []int // at[j] is the index in rows of asked[j]
	for i, r := range rows {
		if r.Kind.Awaits() && r.Seat >= 0 && r.GameID != "" {
			asked = append(asked, r)
			at = append(at, i)
		}
	}
	if len(asked) == 0 {
		return rows, nil, nil
	}
	news, err := w.c.Freshness.Freshness(ctx, asked)
	if err != nil {
		return nil, nil, err
	}
	stale := make(map[int]string, len(asked))
	for j, n := range news {
		i := at[j]
		if n.Stale != "" {
			stale[i] = n.Stale
			continue
		}
		if rows[i].Kind == outbox.YourTurn && n.Version > rows[i].EventVersion {
			rows[i].EventVersion = n.Version
		}
	}
	for i, r := range rows {
		if why, ok := stale[i]; ok {
			early = append(early, Outcome{ID: r.ID, Status: Skipped, Error: why})
			continue
		}
		keep = append(keep, r)
	}
	return keep, early, nil
}
