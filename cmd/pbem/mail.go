package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/events"
	notifypg "pbem/notify/postgres"
	"pbem/projections"
)

// startMail wires the email side of serve: the outbox worker (woken by
// every committed append) and the deadline scheduler run until ctx ends;
// it returns the mail routes for the HTTP handler and a stop function that
// ends them and waits (serve defers it before closing the pool). Without
// PBEM_SMTP_URL, emails go to the dev mailbox shown at /dev/mail.
func startMail(ctx context.Context, e *env, cfg config, secret []byte, pool *pgxpool.Pool, store events.Store, svc *projections.Service) ([]api.Route, func(), error) {
	wake, err := store.Notify(ctx)
	if err != nil {
		e.log.Warn("outbox worker: no append notifications, polling only", "err", err)
		wake = nil
	}
	retention, err := time.ParseDuration(cfg.OutboxRetention)
	if err != nil {
		return nil, nil, fmt.Errorf("PBEM_OUTBOX_RETENTION: %w", err)
	}
	if retention <= 0 {
		retention = -1 // kept forever
	}
	mail, err := notifypg.NewMail(pool, notifypg.MailConfig{SMTPURL: cfg.SMTPURL, PublicURL: cfg.PublicURL,
		From: cfg.MailFrom, Secret: secret, Timeouter: svc, Wake: wake, Logger: e.log, OutboxRetention: retention})
	if err != nil {
		return nil, nil, err
	}
	if mail.Mailbox != nil {
		e.log.Info("no PBEM_SMTP_URL: emails go to the dev mailbox", "url", cfg.PublicURL+"/dev/mail")
	}
	routes := api.MailRoutes(api.MailConfig{Secret: secret, Prefs: mail.Prefs, Outbox: mail.Outbox,
		Service: svc, Mailbox: mail.Mailbox})
	mctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); mail.Run(mctx) }()
	return routes, func() { cancel(); wg.Wait() }, nil
}
