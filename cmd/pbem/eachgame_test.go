package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachGameReportsInOrder: outcomes reach report in the order of the
// ids whatever order the workers finish in, and never more than workers
// run at once.
func TestEachGameReportsInOrder(t *testing.T) {
	t.Parallel()
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	var running, peak atomic.Int32
	work := func(_ context.Context, id string) error {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		running.Add(-1)
		if id == "17" {
			return errors.New("bad game")
		}
		return nil
	}
	var got []string
	var failed []int
	err := eachGame(context.Background(), ids, 4, work, func(i int, id string, err error) error {
		got = append(got, id)
		if err != nil {
			failed = append(failed, i)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("reported out of order: %v", got)
	}
	if fmt.Sprint(failed) != "[17]" {
		t.Errorf("failures %v, want [17]", failed)
	}
	if p := peak.Load(); p > 4 || p < 2 {
		t.Errorf("%d ran at once, want 2 to 4", p)
	}
}

// TestEachGameStopsAtReportError: an error from report ends the walk and
// is returned; later games are not all started.
func TestEachGameStopsAtReportError(t *testing.T) {
	t.Parallel()
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	var started atomic.Int32
	stop := errors.New("stop")
	err := eachGame(context.Background(), ids, 2, func(ctx context.Context, id string) error {
		started.Add(1)
		time.Sleep(100 * time.Microsecond)
		return nil
	}, func(i int, id string, err error) error {
		if i == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want stop", err)
	}
	if n := started.Load(); n > 100 {
		t.Errorf("%d games started after the stop at game 10", n)
	}
}
