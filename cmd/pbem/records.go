package main

import (
	"context"
	"sync"
	"time"

	"pbem/events"
	"pbem/events/play"
)

// recordsPoll is how often serve refreshes the records when no append
// wakes it, and recordsSpacing the least time between two refreshes: a
// busy server folds each game once it has ended, not at every append.
const (
	recordsPoll    = 30 * time.Second
	recordsSpacing = time.Second
)

// startRecords runs serve's records refresher (play.Service.RefreshRecords:
// the stints of the games that ended and the ratings), woken by every
// committed append and at most once a second, else every recordsPoll,
// until ctx ends; the returned function stops it and waits.
func startRecords(ctx context.Context, e *env, store events.Store, svc *play.Service) func() {
	rctx, cancel := context.WithCancel(ctx)
	wake, err := store.Notify(rctx)
	if err != nil {
		e.log.Warn("records: no append notifications, polling only", "err", err)
		wake = nil
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(recordsPoll)
		defer tick.Stop()
		for {
			if n, err := svc.RefreshRecords(rctx); err != nil && rctx.Err() == nil {
				e.log.Error("records: refresh", "err", err)
			} else if n > 0 {
				e.log.Info("records: games folded", "games", n)
			}
			select {
			case <-rctx.Done():
				return
			case <-time.After(recordsSpacing):
			}
			select {
			case <-rctx.Done():
				return
			case <-wake:
			case <-tick.C:
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}
