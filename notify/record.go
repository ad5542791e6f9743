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
