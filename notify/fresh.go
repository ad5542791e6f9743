package notify

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"pbem/projections/outbox"
)

// Emails that are true when read (issue #30). A your-turn email or a
// reminder waits in the outbox (the mail grace, a retry) while the game goes
// on: its player may have moved on the page meanwhile, or a bot may have
// answered and the turn come back with another list. Just before sending,
// the worker asks its Freshness for the news of each such row:
//
//   - stale (the seat is no longer awaited, or a bot plays it for its
//     person now (issue #43), it played since the email's
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
//
// A round-end email tells the round's summary, and to the seat awaited at
// the round's end its moves and deadline too: it is that seat's your-turn
// email, the one email of the round's end and the turn it gives
// (projections.Owed owes no other). It is asked about as a your-turn
// email is (Kind.MayAwait); stale, it is still sent, since the round's
// summary is still news, but without its call to move (Row.Passed): a
// seat that played within the grace, or a game that ended, is not asked
// again for a move it made or can no longer make. Fresh, it asks as a
// fresh your-turn email does: its story is told up to the game's version
// now (its table stays the round's: Row.RoundAt), and the table talk
// written meanwhile waits for it rather than going in an email of its own.

// A round-end email that has not gone out when the game ends (it waited
// the grace, a bot or a timeout played the rest of the game meanwhile,
// or the relay was down) is folded into the game-over email to its seat:
// once that email is in the outbox, waiting or sent, the round-end email
// is not sent (StaleOver). Nothing it would tell is lost: the game-over
// email tells every round that ended after the seat's last email of a
// story that went out, and the lines since then (Story), and, written in
// the transaction of the game's end, it is always sent (nothing takes a
// game's end back). Both are checked from committed rows just before
// sending, so a crash between them sends each once: the round-end email
// is recorded skipped only while the game-over email is in the outbox.

// The muster's end (issue #46) owes every seat an email: its your-turn
// email, a notice "The game begins", or the game-over email of a game
// called off. When the last answer came by reply, the answer to that
// reply tells its reader the start (what the muster's end did, and to a
// seat the game awaits its deadline and moves, play.MusterEnd): the email
// the start owes that seat waits the mail grace (projections.Owed) and is
// not sent if the answer, about its version or a later one, is in the
// outbox by then (StaleAnswered). One reply, one email. An answer never
// written (a seat's answers per hour used up, a listener that crashed
// before it recorded the reply) folds nothing: the start's email goes.

// News is what Freshness tells of a claimed row.
type News struct {
	// Stale, if not empty, says why the row must not be sent.
	Stale string
	// Version is the game's version now: a fresh your-turn email tells its
	// story up to it (0: unknown, the row's own version is kept), and a
	// table-talk email the lines up to it.
	Version int64
	// Earlier are the lines of the older hand-off notices to the row's
	// seat that it gathers (StaleHandoff), in order: the email tells them
	// before its own.
	Earlier []string
	// LastSent is when the last table-talk email of the game went to the
	// row's seat (zero: never), for a table-talk row: the next one waits
	// until ChatGather after it.
	LastSent time.Time
}

// Table talk is gathered (issue #31): a line written to the table no
// longer emails every other player at once. Each line still writes a
// table-talk row per recipient (the projector), but just before sending
// the worker asks its Freshness about it:
//
//   - folded: a your-turn email to the seat is waiting, or a round-end
//     email that asks the seat's move while it is still awaited; it tells
//     the lines (its story includes the table talk), so the row is
//     skipped;
//   - gathered: an older table-talk row to the seat is waiting; that one
//     will tell this line too, so this one is skipped;
//   - too soon: a table-talk email went to the seat less than ChatGather
//     ago; the row waits until ChatGather after it (still pending);
//   - else it is sent, telling every line of the others the seat has not
//     been told yet (after its last visit of the page and its last
//     table-talk or your-turn email) up to the game's version now. A row
//     whose lines were all told already is skipped.
//
// So a player gets at most one table-talk email per game per quarter
// hour, or none when the email that asks their move brings the lines. Per
// game, not per person (#31: "at most one per player per quarter hour, or
// the next your-turn email"): a person in two games gets each table's
// talk in that game's email, whose replies go back to that table and whose
// your-turn email is the one that would fold it; two tables in one email
// would need two reply addresses and could not be folded into either
// turn.

// ChatGather is the least time between two table-talk emails to a seat.
const ChatGather = 15 * time.Minute

// Freshness reads, just before sending, whether claimed rows still tell
// the truth. notify/postgres.Outbox implements it.
type Freshness interface {
	// Freshness returns the News of each row (in its order). Rows of kinds
	// that may not await a move (Kind.MayAwait), are not table talk
	// (Kind.Gathered) and cannot be folded into another email
	// (Kind.Foldable) are always fresh.
	Freshness(ctx context.Context, rows []Row) ([]News, error)
}

// Stale reasons, recorded in a skipped row's last_error.
const (
	StaleNotAwaited = "stale: the seat is no longer awaited"
	StaleBot        = "stale: a bot plays the seat"
	StalePlayed     = "stale: the seat played since"
	StaleSuperseded = "stale: a newer email to the seat is waiting"
	StaleFolded     = "gathered: the seat's email that asks its move tells the table talk"
	StaleGathered   = "gathered: an older table-talk email to the seat is waiting"
	StaleTold       = "gathered: every line was told already"
	StaleAnswered   = "folded: the answer to the seat's reply that ended the muster tells it"
	StaleOver       = "folded: the seat's game-over email tells the round"
	// StaleHandoff: a newer hand-off notice to the seat (a seat given to
	// a bot or back, projections.Handoff) is waiting, or went after this
	// one was written: it tells this one's lines too. Each hand-off notice
	// waits the mail grace, so the hand-offs that follow one another
	// within it go as one email, the newest, which tells the lines of the
	// older ones not sent (News.Earlier). A skip is recorded only while
	// the newer row is in the outbox, so a crash loses none, and the
	// newer row tells the older ones whenever it goes, so none goes twice.
	StaleHandoff = "gathered: a newer hand-off notice to the seat tells it"
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
		if (r.Kind.MayAwait() || r.Kind.Gathered() || r.Kind.Foldable()) && r.Seat >= 0 && r.GameID != "" {
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
	later := map[int]time.Time{} // gathered rows that wait
	now := w.c.Now()
	for j, n := range news {
		i := at[j]
		if k := rows[i].Kind; k.MayAwait() && !k.Awaits() {
			// A round's end: not sent once the game-over email tells it;
			// else sent, without its call to move once the seat has moved
			// or is no longer awaited (a your-turn email or reminder owed
			// since asks the same, and does not make it untrue); with it,
			// told up to now.
			switch {
			case n.Stale == StaleOver:
				stale[i] = n.Stale
			case n.Stale != "" && n.Stale != StaleSuperseded:
				rows[i].Passed = n.Stale
			case n.Stale == "" && n.Version > rows[i].EventVersion && asks(rows[i]):
				rows[i].RoundAt, rows[i].EventVersion = rows[i].EventVersion, n.Version
			}
			continue
		}
		if n.Stale != "" {
			stale[i] = n.Stale
			continue
		}
		if next := n.LastSent.Add(ChatGather); rows[i].Kind.Gathered() && !n.LastSent.IsZero() && next.After(now) {
			later[i] = next
			continue
		}
		if len(n.Earlier) > 0 {
			if rows[i].Payload, err = withEarlier(rows[i].Payload, n.Earlier); err != nil {
				return nil, nil, err
			}
		}
		if (rows[i].Kind == outbox.YourTurn || rows[i].Kind.Gathered()) && n.Version > rows[i].EventVersion {
			rows[i].EventVersion = n.Version
		}
	}
	for i, r := range rows {
		if why, ok := stale[i]; ok {
			early = append(early, Outcome{ID: r.ID, Status: Skipped, Error: why})
			continue
		}
		if next, ok := later[i]; ok {
			early = append(early, Outcome{ID: r.ID, Status: Pending, NextAttempt: next})
			continue
		}
		keep = append(keep, r)
	}
	return keep, early, nil
}

// asks reports whether r's payload asks its seat to move (a round-end
// email to the seat awaited at the round's end).
func asks(r Row) bool {
	p, err := DecodePayload(r.Payload)
	return err == nil && p.Awaited
}

// withEarlier is payload with earlier's lines before its own: a hand-off
// notice that gathers the older ones (StaleHandoff).
func withEarlier(payload json.RawMessage, earlier []string) (json.RawMessage, error) {
	p, err := DecodePayload(payload)
	if err != nil {
		return nil, err
	}
	p.Lines = append(slices.Clip(earlier), p.Lines...)
	return json.Marshal(p)
}
