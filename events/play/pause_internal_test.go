package play

import (
	"context"
	"testing"
	"time"
)

// TestDecisionPauseWaitsToTheGrid checks the grid of pause.go on a clock
// the test moves: a decision that took less than the pause is appended
// one pause after it began, one that outlasted k pauses k+1 pauses after,
// whatever it took within them; a pause of 0 appends at once.
func TestDecisionPauseWaitsToTheGrid(t *testing.T) {
	t.Parallel()
	const pause = 2 * time.Second
	start := time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		took, pause, want time.Duration
	}{
		{0, pause, pause},
		{time.Microsecond, pause, pause},
		{pause - time.Microsecond, pause, pause},
		{pause, pause, pause},
		{pause + time.Microsecond, pause, 2 * pause},
		{5*pause/2 + 7*time.Millisecond, pause, 3 * pause},
		{300 * time.Millisecond, 0, 300 * time.Millisecond},
	} {
		now := start
		s := New(Config{DecisionPause: c.pause, Now: func() time.Time { return now },
			Sleep: func(_ context.Context, d time.Duration) error { now = now.Add(d); return nil }})
		dc := s.decisionStart()
		now = now.Add(c.took)
		if err := dc.wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := now.Sub(start); got != c.want {
			t.Errorf("a decision of %v with a pause of %v is appended %v after it began, want %v", c.took, c.pause, got, c.want)
		}
	}
}

// TestDecisionPauseEndsWithItsContext: a pause whose request ends returns
// the request's error (the default Sleep, on a timer).
func TestDecisionPauseEndsWithItsContext(t *testing.T) {
	t.Parallel()
	s := New(Config{DecisionPause: time.Hour})
	dc := s.decisionStart()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := dc.wait(ctx); err != context.Canceled {
		t.Fatalf("wait = %v, want context.Canceled", err)
	}
}
