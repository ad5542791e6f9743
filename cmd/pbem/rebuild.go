package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// rebuild recomputes every projection (game state, lobby, inbox)
// from the events alone: `pbem rebuild [GAME...]`. On a terminal it draws a
// progress bar; otherwise it prints one summary line. Several games are
// rebuilt at once (-workers); it stops at the first that fails.
func rebuild(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "rebuild")
	workers := fs.Int("workers", defaultWorkers(), "games rebuilt at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	svc, _, closeAll, err := openService(ctx, e)
	if err != nil {
		return err
	}
	defer closeAll()
	ids := fs.Args()
	if len(ids) == 0 {
		if ids, err = svc.GameIDs(ctx); err != nil {
			return err
		}
	}
	bar := newProgress(e.stdout, "rebuild", len(ids))
	start := time.Now()
	err = eachGame(ctx, ids, *workers, svc.Rebuild, func(i int, id string, err error) error {
		if err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		bar.set(i + 1)
		return nil
	})
	bar.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "rebuilt %d games in %s\n", len(ids), time.Since(start).Round(time.Millisecond))
	// The records and ratings (issue #46) are computed again from the
	// events of every ended game (they are one read model over all games:
	// the ratings of one depend on those before it).
	n, err := svc.RebuildRecords(ctx)
	if err != nil {
		return fmt.Errorf("records: %w", err)
	}
	fmt.Fprintf(e.stdout, "rebuilt the records of %d ended games and the ratings\n", n)
	return nil
}

// progress draws a progress bar on a terminal, and nothing elsewhere.
type progress struct {
	w          io.Writer
	tty        bool
	label      string
	total, cur int
	last       time.Time
}

func newProgress(w io.Writer, label string, total int) *progress {
	return &progress{w: w, tty: isTerminal(w), label: label, total: total}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) set(n int) {
	p.cur = n
	if !p.tty || (time.Since(p.last) < 100*time.Millisecond && n != p.total) {
		return
	}
	p.last = time.Now()
	const width = 40
	filled := width
	if p.total > 0 {
		filled = width * n / p.total
	}
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.label, strings.Repeat("#", filled), strings.Repeat(".", width-filled), n, p.total)
}

func (p *progress) done() {
	if p.tty && p.cur > 0 {
		fmt.Fprintln(p.w)
	}
}
