package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/play"
	"pbem/events/play/bots"
)

// defaultBotDelay is the bots' think time when PBEM_BOT_DELAY is unset.
const defaultBotDelay = 2 * time.Second

// botDelay reads PBEM_BOT_DELAY: how long after a game last changed its
// bot plays (a Go duration, "0s" to "1h"). Empty: defaultBotDelay.
func botDelay(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return defaultBotDelay, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Hour {
		return 0, fmt.Errorf("PBEM_BOT_DELAY=%q: give a duration from 0s to 1h, like 2s", v)
	}
	return d, nil
}

// defaultDecisionPause is the decision pause when PBEM_DECISION_PAUSE is
// unset: four times the slowest strong bot's decision measured on a
// loaded machine (events/play/pause.go).
const defaultDecisionPause = 2 * time.Second

// decisionPause reads PBEM_DECISION_PAUSE: how long after it began a bot's
// move or a timeout is appended at the earliest, so that its time tells
// nothing of the decision (play.Config.DecisionPause; a Go duration, "0s"
// to "1m"). Empty: defaultDecisionPause.
func decisionPause(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return defaultDecisionPause, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Minute {
		return 0, fmt.Errorf("PBEM_DECISION_PAUSE=%q: give a duration from 0s to 1m, like 1s", v)
	}
	return d, nil
}

// startBots runs the bot worker of serve (woken by this process's appends
// that leave a bot's seat awaited, play.Config.BotAwaited, else polling
// every second) until ctx ends; the returned function stops it and waits.
func startBots(ctx context.Context, e *env, pool *pgxpool.Pool, wake <-chan struct{}, svc *play.Service) (func(), error) {
	delay, err := botDelay(e.cfg.BotDelay)
	if err != nil {
		return nil, err
	}
	bctx, cancel := context.WithCancel(ctx)
	w := bots.NewWorker(pool, bots.Config{Player: svc, Delay: delay, Wake: wake, Logger: e.log})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(bctx) }()
	return func() { cancel(); wg.Wait() }, nil
}

// kick signals c without waiting: a wake-up already pending stands for
// this one.
func kick(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
