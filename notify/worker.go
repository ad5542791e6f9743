package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
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
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Batch is how many rows one claim takes (default 50); they are sent
	// on one SMTP connection.
	Batch int
	// Lease is how long a claimed row stays invisible to other workers
	// (default 2 minutes). It must exceed the time a batch takes to send,
	// or another worker may send the same rows again.
	Lease time.Duration
	// RecordFor is how long the worker keeps trying to record the outcomes
	// of a batch it sent while the store fails (a database restart or
	// failover), rather than leave the rows to be sent again after their
	// lease (default 1 minute; negative: one attempt).
	RecordFor time.Duration
	// MaxAttempts is how many sends a row gets before it is marked failed
	// (default 8).
	MaxAttempts int
	// Backoff gives the delay before a retry (default Backoff(30s, 6h)).
	Backoff func(attempts int) time.Duration
	// Poll is the wait between claims when the outbox is empty (default 2s).
	Poll time.Duration
	// Wake, if set, ends a Poll wait early (e.g. after an append commits).
	Wake <-chan struct{}
	// Logger gets one line per batch problem; nil: slog.Default().
	Logger *slog.Logger
}

// Worker sends outbox rows. Several workers (in one or several processes)
// may run over the same outbox: claims never overlap while leases last.
type Worker struct{ c WorkerConfig }

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
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.RecordFor == 0 {
		c.RecordFor = time.Minute
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 8
	}
	if c.Backoff == nil {
		c.Backoff = Backoff(30*time.Second, 6*time.Hour)
	}
	if c.Poll <= 0 {
		c.Poll = 2 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Worker{c: c}, nil
}

// Run sends batches until ctx ends; it waits Poll (or a Wake) when the
// outbox has nothing due, and after an error. It returns ctx's error.
func (w *Worker) Run(ctx context.Context) error {
	for {
		n, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.c.Logger.Error("notify: outbox batch", "err", err)
		}
		if n == w.c.Batch && err == nil {
			continue // more may be due
		}
		t := time.NewTimer(w.c.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-w.c.Wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// RunOnce claims one batch of due rows, sends it and records the outcomes.
// It returns how many rows it claimed.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	rows, err := w.c.Store.Claim(ctx, w.c.Now(), w.c.Batch, w.c.Lease)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	outcomes := make([]Outcome, len(rows))
	msgs := make([]*Message, 0, len(rows))
	idx := make([]int, 0, len(rows)) // msgs[j] is rows[idx[j]]
	modes, err := w.modes(ctx, rows)
	if err != nil {
		// Leave the rows to the lease: they come back when it ends.
		return len(rows), err
	}
	for i, r := range rows {
		outcomes[i].ID = r.ID
		m, err := w.c.Renderer.Render(r)
		if err != nil {
			outcomes[i] = w.failure(r, err)
			continue
		}
		if !r.Kind.AlwaysSent() {
			if mode := modes[strings.ToLower(m.To)]; mode == Off || (mode == DailyDigest && r.Kind != Digest) {
				outcomes[i].Status, outcomes[i].Error = Skipped, "preference: "+string(mode)
				continue
			}
		}
		msgs = append(msgs, m)
		idx = append(idx, i)
	}
	// Stop sending well before the lease ends, so that no other worker
	// takes these rows while this one still sends them; rows left unsent
	// are retried.
	sctx, cancel := context.WithTimeout(ctx, w.c.Lease*3/4)
	errs := w.c.Sender.Send(sctx, msgs)
	cancel()
	for j, m := range msgs {
		i := idx[j]
		if errs[j] != nil {
			outcomes[i] = w.failure(rows[i], errs[j])
			continue
		}
		outcomes[i].Status, outcomes[i].MessageID = Sent, m.MessageID
	}
	if err := w.record(ctx, outcomes); err != nil {
		return len(rows), fmt.Errorf("notify: record outcomes: %w", err)
	}
	for i, o := range outcomes {
		if o.Status == Failed {
			w.c.Logger.Warn("notify: email failed", "outbox_id", o.ID, "game", rows[i].GameID,
				"kind", rows[i].Kind, "attempts", rows[i].Attempts, "err", o.Error)
		}
	}
	return len(rows), nil
}

// failure is the outcome of a row whose send failed.
func (w *Worker) failure(r Row, err error) Outcome {
	o := Outcome{ID: r.ID, Error: truncate(err.Error(), 500)}
	if IsPermanent(err) || r.Attempts >= w.c.MaxAttempts {
		o.Status = Failed
		return o
	}
	o.Status = Pending
	o.NextAttempt = w.c.Now().Add(w.c.Backoff(r.Attempts))
	return o
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
