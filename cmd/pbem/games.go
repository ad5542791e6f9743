package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/cmd/internal/wiring"
	"pbem/events"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	ppg "pbem/projections/postgres"
)

// newService builds the game service on pool and store; opts adjust its
// configuration (serve adds the moves metric).
func newService(e *env, pool *pgxpool.Pool, store events.Store, opts ...func(*play.Config)) (*play.Service, error) {
	games, err := wiring.Games()
	if err != nil {
		return nil, err
	}
	secret, err := loadSecret(e)
	if err != nil {
		return nil, err
	}
	grace, err := wiring.MailGrace(e.cfg.MailGrace)
	if err != nil {
		return nil, err
	}
	maxWait, days, err := awayConfig(e.cfg.AwayMaxWait, e.cfg.AwayDays)
	if err != nil {
		return nil, err
	}
	c := play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Records: ppg.New(pool), Secret: secret, MailGrace: grace, AwayMaxWait: maxWait, AwayDays: days}
	for _, o := range opts {
		o(&c)
	}
	return play.New(c), nil
}

// loadSecret returns PBEM_SECRET, or else the secret kept in the data
// folder (created at first use), so that play links survive a restart.
// Several serve processes sharing one database must share PBEM_SECRET.
func loadSecret(e *env) ([]byte, error) {
	if e.cfg.Secret != "" {
		return []byte(e.cfg.Secret), nil
	}
	path := filepath.Join(e.cfg.DataDir, "secret")
	if b, err := os.ReadFile(path); err == nil {
		if s := strings.TrimSpace(string(b)); len(s) >= 32 {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("%s is too short: delete it or set PBEM_SECRET", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	s, err := newSecret()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(e.cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, err
	}
	e.log.Warn("PBEM_SECRET is not set: using a new secret kept in " + path)
	return []byte(s), nil
}

// openService opens the database (migrated), the event store and the game
// service, for the maintenance commands. close releases them.
func openService(ctx context.Context, e *env) (svc *play.Service, pool *pgxpool.Pool, close func(), err error) {
	db, err := openDatabase(ctx, e)
	if err != nil {
		return nil, nil, nil, err
	}
	closers := []func(){func() { _ = db.Close() }}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	// The error returns below set close to nil: the deferred cleanup calls
	// closeAll, not close.
	defer func() {
		if err != nil {
			closeAll()
		}
	}()
	if err := db.migrate(); err != nil {
		return nil, nil, nil, fmt.Errorf("migrate: %w", err)
	}
	pool, err = db.pool(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	closers = append(closers, pool.Close)
	store := evpg.New(pool)
	closers = append(closers, store.Close)
	svc, err = newService(e, pool, store)
	if err != nil {
		return nil, nil, nil, err
	}
	return svc, pool, closeAll, nil
}

// awayConfig reads PBEM_AWAY_MAX_WAIT (a Go duration from 1h to 2160h;
// empty: play.DefaultAwayMaxWait) and PBEM_AWAY_DAYS (days of away in
// any 365, 1 to 365; empty: play.DefaultAwayDays).
func awayConfig(wait, days string) (time.Duration, int, error) {
	w, n := play.DefaultAwayMaxWait, play.DefaultAwayDays
	if v := strings.TrimSpace(wait); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Hour || d > 2160*time.Hour {
			return 0, 0, fmt.Errorf("PBEM_AWAY_MAX_WAIT=%q: give a duration from 1h to 2160h, like 336h", wait)
		}
		w = d
	}
	if v := strings.TrimSpace(days); v != "" {
		d, err := strconv.Atoi(v)
		if err != nil || d < 1 || d > 365 {
			return 0, 0, fmt.Errorf("PBEM_AWAY_DAYS=%q: give a number of days from 1 to 365, like 30", days)
		}
		n = d
	}
	return w, n, nil
}
