package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"pbem/events"
)

// fakeCutter answers TellHistoryCut from a table, counting calls.
type fakeCutter struct {
	answers map[string][]error // by game: the error of each call in turn (nil: told)
	calls   map[string]int
}

func (f *fakeCutter) TellHistoryCut(_ context.Context, id string, _ int64) (bool, error) {
	n := f.calls[id]
	f.calls[id]++
	errs := f.answers[id]
	if n >= len(errs) {
		return false, nil
	}
	return errs[n] == nil, errs[n]
}

// TestTellHistoryCuts: every game of the head log is handed over; a game
// that moved meanwhile is tried once more; a game the database no longer
// holds and a failure are logged and do not stop the others; a game not
// cut is not logged.
func TestTellHistoryCuts(t *testing.T) {
	t.Parallel()
	f := &fakeCutter{calls: map[string]int{}, answers: map[string][]error{
		"told":  {nil},
		"moved": {events.Errorf(events.CodeConflict, "moved"), nil},
		"gone":  {events.Errorf(events.CodeNotFound, "no game")},
		"fails": {events.Errorf(events.CodeInvalid, "bad")},
	}}
	var logs bytes.Buffer
	tellHistoryCuts(context.Background(), slog.New(slog.NewTextHandler(&logs, nil)), f,
		map[string]int64{"told": 9, "moved": 9, "gone": 9, "fails": 9, "whole": 9})
	for id, want := range map[string]int{"told": 1, "moved": 2, "gone": 1, "fails": 1, "whole": 1} {
		if f.calls[id] != want {
			t.Errorf("game %s: %d calls, want %d", id, f.calls[id], want)
		}
	}
	out := logs.String()
	for _, want := range []string{"games=2", "game=gone", "game=fails", "game=told", "game=moved"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log does not say %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "game=whole") {
		t.Errorf("a game not cut is logged:\n%s", out)
	}
}
