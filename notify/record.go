package notify

import (
	"context"
	"time"
)

// shutdownRecordFor bounds WorkerConfig.RecordFor once the worker is
// stopping, so that a shutdown with the database down does not hang.
const shutdownRecordFor = 5 * time.Second

// record records outcomes with Store.Finish, trying again with a growing
// pause while it fails (Finish is idempotent), for up to RecordFor: rows it
// fails to record stay claimed until their lease ends and are then sent
// again, so every second spent here can save a batch of duplicates. A
// cancelled ctx must not lose what was sent: each attempt runs on a context
// of its own.
func (w *Worker) record(ctx context.Context, outcomes []Outcome) error {
	start := time.Now()
	pause := 100 * time.Millisecond
	for {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err := w.c.Store.Finish(actx, w.c.Now(), outcomes)
		cancel()
		if err == nil {
			return nil
		}
		budget := w.c.RecordFor
		if ctx.Err() != nil {
			budget = min(budget, shutdownRecordFor)
		}
		if time.Since(start)+pause > budget {
			return err
		}
		w.c.Logger.Warn("notify: record outcomes: retrying", "err", err, "rows", len(outcomes))
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Second)
	}
}

// EachSender is a Sender that reports each message the server accepted as
// soon as it did (failures may come at the end): the worker then records a
// sent row before sending the next one, so that a crash sends at most the
// one message in flight again, rather than its whole batch.
type EachSender interface {
	Sender
	SendEach(ctx context.Context, msgs []*Message, done func(i int, err error))
}

// send sends msgs (msgs[j] is rows[idx[j]]) on sctx and returns their
// errors. With an EachSender, each accepted message's row is recorded as
// sent at once, on ctx (the batch's outcomes are recorded again at the
// end, which changes nothing for a sent row).
func (w *Worker) send(sctx, ctx context.Context, rows []Row, idx []int, msgs []*Message) []error {
	es, ok := w.c.Sender.(EachSender)
	if !ok {
		return w.c.Sender.Send(sctx, msgs)
	}
	errs := make([]error, len(msgs))
	es.SendEach(sctx, msgs, func(j int, err error) {
		errs[j] = err
		if err != nil {
			return
		}
		o := Outcome{ID: rows[idx[j]].ID, Status: Sent, MessageID: msgs[j].MessageID}
		if rerr := w.record(ctx, []Outcome{o}); rerr != nil {
			w.c.Logger.Warn("notify: record a sent email", "outbox_id", o.ID, "err", rerr)
		}
	})
	return errs
}
