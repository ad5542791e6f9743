package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"pbem/projections/outbox"
	"slices"
	"strings"
	"sync"
	"time"
)

// WorkerConfig configures a Worker. Store, Sender and Renderer are required.
type WorkerConfig struct {
	Store    OutboxStore
	Sender   Sender
	Renderer *Renderer
	// Prefs, if set, is consulted for every row except invitations and
	// link resends.
	Prefs PrefStore
	// Freshness, if set, is asked just before sending whether a your-turn
	// email or a reminder still tells the truth (see Freshness): a stale
	// one is skipped, a fresh one tells its story up to the game's version.
	Freshness Freshness
	// Seats, if set, gives each seat's email its time zone and, for a
	// your-turn email, everything that happened since the seat's last move
	// (see Story). Nil: payload lines only, deadlines in UTC.
	Seats SeatReader
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Batch is how many rows one claim takes (default 50); they are sent
	// on one SMTP connection.
	Batch int
	// Senders is how many batches Run sends at once, each claimed on its
	// own and sent on its own connection (default 4; PBEM_MAIL_SENDERS).
	Senders int
	// Lease is how long a claimed row stays invisible to other workers
	// (default 2 minutes). It must exceed the time a batch takes to send,
	// or another worker may send the same rows again.
	Lease time.Duration
	// RecordFor is how long the worker keeps trying to record the outcomes
	// of a batch it sent while the store fails (a database restart or
	// failover), rather than leave the rows to be sent again after their
	// lease (default 1 minute; negative: one attempt).
	RecordFor time.Duration
	// RetryFor is how long a row whose sends fail for a temporary reason
	// (the relay down, a 4xx answer) is retried, from its creation, before
	// it is marked failed (default DefaultRetryFor). Meanwhile the
	// organiser sees it as waiting, with the last error (OutboxStore.Failed).
	RetryFor time.Duration
	// MaxAttempts bounds the claims of one row (default 200, more than
	// RetryFor's retries): a backstop for a row whose sending crashes the
	// worker before any outcome is recorded.
	MaxAttempts int
	// Backoff gives the delay before a retry (default Backoff(30s, 1h):
	// growing delays, then hourly, as RFC 5321 section 4.5.4.1 asks of a
	// sender).
	Backoff func(attempts int) time.Duration
	// Poll is the wait between claims when the outbox is empty (default 2s).
	Poll time.Duration
	// Wake, if set, ends a Poll wait early (e.g. after an append commits).
	Wake <-chan struct{}
	// Heads, if set, logs the version of each email sent (HeadLog), by
	// which serve sees a restore that cut a game's history.
	Heads *HeadLog
	// Logger gets one line per batch problem; nil: slog.Default().
	Logger *slog.Logger
}

// Worker sends outbox rows. Several workers (in one or several processes)
// may run over the same outbox: claims never overlap while leases last.
// A worker whose ctx ends releases the rows it claimed and did not send.
type Worker struct {
	c     WorkerConfig
	alarm *alarm
}

// NewWorker checks c and fills in defaults.
func NewWorker(c WorkerConfig) (*Worker, error) {
	if c.Store == nil || c.Sender == nil || c.Renderer == nil {
		return nil, errors.New("notify: worker needs a store, a sender and a renderer")
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Batch <= 0 {
		c.Batch = 50
	}
	if c.Senders <= 0 {
		c.Senders = DefaultSenders
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.RecordFor == 0 {
		c.RecordFor = time.Minute
	}
	if c.RetryFor <= 0 {
		c.RetryFor = DefaultRetryFor
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 200
	}
	if c.Backoff == nil {
		c.Backoff = Backoff(30*time.Second, time.Hour)
	}
	if c.Poll <= 0 {
		c.Poll = 2 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Worker{c: c, alarm: newAlarm()}, nil
}

// DefaultRetryFor is WorkerConfig.RetryFor's default: five days, as mail
// servers keep a message they cannot deliver yet (RFC 5321 section
// 4.5.4.1 asks for at least four or five days), so that a relay outage of
// a weekend loses nothing.
const DefaultRetryFor = 5 * 24 * time.Hour

// DefaultSenders is WorkerConfig.Senders' default: enough to overlap the
// rendering, the relay's round trips and the recording of outcomes on a
// small server without holding many connections to the relay.
const DefaultSenders = 4

// Run sends batches with Senders goroutines until ctx ends, and returns
// ctx's error. A sender whose batch was full claims the next one at once
// and wakes an idle peer, so a burst (the daily digests) is sent by all of
// them; a sender with nothing due waits Poll, a Wake, the time an append
// said was due (Due) or a peer's call. Claims never overlap, so no row
// goes to two senders.
func (w *Worker) Run(ctx context.Context) error {
	more := make(chan struct{}, w.c.Senders)
	var wg sync.WaitGroup
	for range w.c.Senders {
		wg.Add(1)
		go func() { defer wg.Done(); w.sendLoop(ctx, more) }()
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		case <-w.c.Wake:
			nudge(more)
		case <-w.alarm.set:
		case <-timer.C:
		}
		ring, wait := w.alarm.due(w.c.Now())
		if ring {
			nudge(more)
		}
		timer.Stop()
		if wait > 0 {
			timer.Reset(wait)
		}
	}
}

// sendLoop is one sender of Run.
func (w *Worker) sendLoop(ctx context.Context, more chan struct{}) {
	for ctx.Err() == nil {
		n, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.c.Logger.Error("notify: outbox batch", "err", err)
		}
		if n == w.c.Batch && err == nil {
			nudge(more) // more may be due: a peer helps
			continue
		}
		t := time.NewTimer(w.c.Poll)
		select {
		case <-ctx.Done():
		case <-more:
		case <-t.C:
		}
		t.Stop()
	}
}

// nudge wakes one waiting sender, if none is already called.
func nudge(more chan struct{}) {
	select {
	case more <- struct{}{}:
	default:
	}
}

// RunOnce claims one batch of due rows, sends them and records each
// outcome as soon as it is known: a row is marked sent right after the
// relay accepted its message, so a worker that crashes in the middle of a
// batch makes at most the one message it was sending go out twice (after
// the lease, with the same Message-ID). Rows it did not get to (its ctx
// ended, the lease is nearly over, or recording failed) are released:
// due again at once, without counting the attempt. It returns how many
// rows it claimed.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	rows, err := w.c.Store.Claim(ctx, w.c.Now(), w.c.Batch, w.c.Lease)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	// Sent in the order they were written: a seat reads its emails in the
	// order of what they tell (a round's end before the turn it gives).
	slices.SortFunc(rows, func(a, b Row) int { return cmp.Compare(a.ID, b.ID) })
	// A cancelled ctx must not lose what was sent: record with a fresh one.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	modes, err := w.modes(ctx, rows)
	if err != nil {
		w.release(fctx, rows)
		return len(rows), err
	}
	// Rows not to send (stale, unrenderable, or the recipient's
	// preference) are recorded together first.
	live, early, err := w.fresh(ctx, rows)
	if err != nil {
		w.release(fctx, rows)
		return len(rows), err
	}
	// The recipients' preferences next, before the stories: a row sent
	// before another to the same seat ends what the other tells.
	live, early = w.preferred(live, modes, early)
	var msgs []*Message
	var sending []Row // sending[j] is the row of msgs[j]
	if err := w.stories(ctx, live); err != nil {
		w.release(fctx, rows)
		return len(rows), err
	}
	for _, r := range live {
		if r.Kind.Gathered() && r.Story != nil && len(r.Story.Events) == 0 {
			early = append(early, Outcome{ID: r.ID, Status: Skipped, Error: StaleTold})
			continue
		}
		m, err := w.c.Renderer.Render(r)
		if err != nil {
			// A row that does not render (a bad payload, a refused
			// address) never will: it fails at once.
			early = append(early, w.failure(r, &PermanentError{Err: err}))
			continue
		}
		msgs = append(msgs, m)
		sending = append(sending, r)
	}
	if err := w.finish(fctx, early, rows); err != nil {
		w.release(fctx, sending)
		return len(rows), err
	}
	// Stop sending well before the lease ends, so that no other worker
	// takes these rows while this one still sends them.
	sctx, scancel := context.WithTimeout(ctx, w.c.Lease*3/4)
	defer scancel()
	done := make([]bool, len(msgs))
	var recErr error
	w.sendEach(sctx, msgs, func(j int, err error) bool {
		if err != nil && sctx.Err() != nil && errors.Is(err, sctx.Err()) {
			return false // stopping: released below
		}
		o := Outcome{ID: sending[j].ID, Status: Sent, MessageID: msgs[j].MessageID, EventVersion: sending[j].EventVersion}
		if err != nil {
			o = w.failure(sending[j], err)
		}
		if recErr = w.finish(fctx, []Outcome{o}, sending[j:j+1]); recErr != nil {
			return false
		}
		w.published(o, sending[j])
		done[j] = true
		return true
	})
	var left []Row
	for j, ok := range done {
		if !ok {
			left = append(left, sending[j])
		}
	}
	w.release(fctx, left)
	return len(rows), recErr
}

// published logs the version of row r if outcome o says it was sent
// (WorkerConfig.Heads).
func (w *Worker) published(o Outcome, r Row) {
	if w.c.Heads == nil || o.Status != Sent {
		return
	}
	if err := w.c.Heads.Published(r.GameID, r.EventVersion); err != nil {
		w.c.Logger.Warn("notify: head log", "game", r.GameID, "err", err)
	}
}

// sendEach sends msgs one after the other, calling report with each
// message's outcome as soon as it is known, and stops when report returns
// false. A StreamSender does it on one connection; any other Sender is
// given one message at a time.
func (w *Worker) sendEach(ctx context.Context, msgs []*Message, report func(i int, err error) bool) {
	if s, ok := w.c.Sender.(StreamSender); ok {
		s.SendEach(ctx, msgs, report)
		return
	}
	for i, m := range msgs {
		if !report(i, w.c.Sender.Send(ctx, []*Message{m})[0]) {
			return
		}
	}
}

// finish records outcomes (of rows, for the log).
func (w *Worker) finish(ctx context.Context, outcomes []Outcome, rows []Row) error {
	if len(outcomes) == 0 {
		return nil
	}
	if err := w.record(ctx, outcomes); err != nil {
		return fmt.Errorf("notify: record outcomes: %w", err)
	}
	byID := make(map[int64]Row, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, o := range outcomes {
		if o.Status == Failed {
			r := byID[o.ID]
			w.c.Logger.Warn("notify: email failed", "outbox_id", o.ID, "game", r.GameID,
				"kind", r.Kind, "attempts", r.Attempts, "err", o.Error)
		}
	}
	return nil
}

// release gives claimed rows back (logged on failure: the lease brings
// them back anyway).
func (w *Worker) release(ctx context.Context, rows []Row) {
	if len(rows) == 0 {
		return
	}
	if err := w.c.Store.Release(ctx, w.c.Now(), rows); err != nil {
		w.c.Logger.Warn("notify: release claimed rows", "rows", len(rows), "err", err)
	}
}

// failure is the outcome of a row whose send failed.
func (w *Worker) failure(r Row, err error) Outcome {
	o := Outcome{ID: r.ID, Error: truncate(err.Error(), 500)}
	now := w.c.Now()
	if IsPermanent(err) || r.Attempts >= w.c.MaxAttempts || now.Sub(r.CreatedAt) >= w.c.RetryFor {
		o.Status = Failed
		return o
	}
	o.Status = Pending
	o.NextAttempt = now.Add(w.c.Backoff(r.Attempts))
	return o
}

// preferred keeps the rows of live their recipients' preferences let
// through (the kinds always sent, else mode Every; a digest to a player of
// daily digests), and adds an outcome skipping each other one to early.
// A row whose payload does not decode is kept: Render fails it.
func (w *Worker) preferred(live []Row, modes map[string]Mode, early []Outcome) ([]Row, []Outcome) {
	keep := live[:0:0]
	for _, r := range live {
		if !r.Kind.AlwaysSent() {
			p, err := DecodePayload(r.Payload)
			if mode := modes[strings.ToLower(p.To.Email)]; err == nil && (mode == Off || (mode == DailyDigest && r.Kind != outbox.Digest)) {
				early = append(early, Outcome{ID: r.ID, Status: Skipped, Error: "preference: " + string(mode)})
				continue
			}
		}
		keep = append(keep, r)
	}
	return keep, early
}

// modes loads the preferences of the rows' recipients.
func (w *Worker) modes(ctx context.Context, rows []Row) (map[string]Mode, error) {
	if w.c.Prefs == nil {
		return map[string]Mode{}, nil
	}
	var emails []string
	for _, r := range rows {
		if r.Kind.AlwaysSent() {
			continue
		}
		if p, err := DecodePayload(r.Payload); err == nil {
			emails = append(emails, strings.ToLower(p.To.Email))
		}
	}
	if len(emails) == 0 {
		return map[string]Mode{}, nil
	}
	return w.c.Prefs.Modes(ctx, emails)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
