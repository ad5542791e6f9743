package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/cmd/internal/wiring"
	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
)

// startMail wires the email side of serve: the outbox worker (told by
// alarm when what this process's appends wrote is due, and polling for
// the rest: notify/alarm.go) and the game service's deadline scheduler
// (events/play.Scheduler) run until ctx ends;
// it returns the mail routes for the HTTP handler and a stop function that
// ends them and waits (serve defers it before closing the pool). Without
// PBEM_SMTP_URL, emails go to the dev mailbox shown at /dev/mail.
func startMail(ctx context.Context, e *env, cfg config, secret []byte, pool *pgxpool.Pool, store events.Store, svc *play.Service,
	metrics *serveMetrics, alarm *mailAlarm) (*api.MailConfig, func(), error) {
	retention, err := time.ParseDuration(cfg.OutboxRetention)
	if err != nil {
		return nil, nil, fmt.Errorf("PBEM_OUTBOX_RETENTION: %w", err)
	}
	if retention <= 0 {
		retention = -1 // kept forever
	}
	ic, err := loadInbound(cfg)
	if err != nil {
		return nil, nil, err
	}
	var dk *notify.DKIM
	if cfg.SMTPURL != "" {
		d, on, err := loadDKIM(e, mailFrom(cfg))
		if err != nil {
			return nil, nil, err
		}
		if on {
			dk = d
		}
	}
	lease, err := mailLease(cfg.MailLease)
	if err != nil {
		return nil, nil, err
	}
	senders, err := mailSenders(cfg.MailSenders)
	if err != nil {
		return nil, nil, err
	}
	grace, err := wiring.MailGrace(cfg.MailGrace)
	if err != nil {
		return nil, nil, err
	}
	games, err := wiring.Games()
	if err != nil {
		return nil, nil, err
	}
	heads, err := notify.OpenHeadLog(filepath.Join(cfg.DataDir, headLogName))
	if err != nil {
		return nil, nil, err
	}
	mail, err := newMailSide(pool, mailConfig{SMTPURL: cfg.SMTPURL, HELO: heloName(cfg), PublicURL: cfg.PublicURL, Games: games, Events: store,
		From: cfg.MailFrom, Secret: secret, Timeouter: svc, Moves: svc, Away: svc, Lease: lease, Senders: senders, Logger: e.log, DKIM: dk,
		Metrics: metrics.mail, ReplyDomain: ic.Domain, OutboxRetention: retention, Heads: heads})
	if err != nil {
		heads.Close()
		return nil, nil, err
	}
	alarm.set(mail.Worker.Due)
	if mail.Mailbox != nil {
		e.log.Info("no PBEM_SMTP_URL: emails go to the dev mailbox", "url", cfg.PublicURL+"/dev/mail")
	}
	proc, stopInbound, err := startInbound(ctx, e, ic, pool, svc, metrics.inbound)
	if err != nil {
		heads.Close()
		return nil, nil, err
	}
	mc := &api.MailConfig{Secret: secret, Prefs: mail.Prefs, Outbox: mail.Outbox,
		Service: svc, Mailbox: mail.Mailbox, Replies: proc, MailGrace: grace}
	mctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); mail.run(mctx) }()
	go func() { defer wg.Done(); tellHistoryCuts(mctx, e.log, svc, heads.Heads()) }()
	return mc, func() { stopInbound(); cancel(); wg.Wait(); heads.Close() }, nil
}

// mailFrom is the From address of emails: PBEM_MAIL_FROM, else pbem@ the
// public URL's host (as the renderer chooses it).
func mailFrom(cfg config) string {
	if cfg.MailFrom != "" {
		return cfg.MailFrom
	}
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		return "pbem@" + u.Hostname()
	}
	return ""
}

// mailLease reads PBEM_MAIL_LEASE: how long the outbox worker holds the
// rows it claimed, hence how soon after a crash the emails it was sending
// go out (again). Empty: the worker's default (2 minutes).
func mailLease(v string) (time.Duration, error) {
	if strings.TrimSpace(v) == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("PBEM_MAIL_LEASE: give a duration of at least 1s, like 2m")
	}
	return d, nil
}

// mailSenders reads PBEM_MAIL_SENDERS: how many batches of emails the
// outbox worker sends at once, each on its own connection to the relay.
// Empty: the worker's default (notify.DefaultSenders).
func mailSenders(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 64 {
		return 0, fmt.Errorf("PBEM_MAIL_SENDERS: give a number from 1 to 64, like 4")
	}
	return n, nil
}
