package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
)

// mailConfig is the email side of `pbem serve`, from the environment.
type mailConfig struct {
	// SMTPURL is PBEM_SMTP_URL; empty selects the dev mailbox.
	SMTPURL string
	// HELO is the name the SMTP client sends in EHLO (PBEM_SMTP_HELO,
	// default the public URL's host).
	HELO string
	// PublicURL is PBEM_PUBLIC_URL (links and Message-IDs).
	PublicURL string
	// From is PBEM_MAIL_FROM; empty: pbem@ the public URL's host.
	From string
	// Secret is PBEM_SECRET.
	Secret []byte
	// Timeouter applies timeouts (the game service).
	Timeouter play.Timeouter
	// Away ends the aways that reached their end (the game service); nil:
	// none are ended.
	Away play.AwayEnder
	// Moves numbers a reminded seat's moves (the game service); nil:
	// reminders number none.
	Moves play.SeatMover
	// Games are the engines that summarise a round for its round-end
	// email (nil: round-end emails carry no summary) and write the
	// your-turn emails the games rows owe (notifypg.Outbox.WithTurns; nil:
	// the outbox claims none).
	Games engine.Registry
	// Events reads the games' streams (the event store), from which the
	// stories, rounds and table talk of the emails are told, and the
	// your-turn emails the games rows owe are written.
	Events notifypg.Streams
	// Wake, if set, wakes the outbox worker (e.g. the event store's Notify).
	Wake <-chan struct{}
	// Lease is how long the outbox worker holds the rows it claimed
	// (PBEM_MAIL_LEASE); 0: the worker's default (notify.WorkerConfig).
	Lease time.Duration
	// Senders is how many batches the outbox worker sends at once
	// (PBEM_MAIL_SENDERS); 0: notify.DefaultSenders.
	Senders int
	// Logger; nil: slog.Default().
	Logger *slog.Logger
	// Heads, if set, logs the version of every email sent (the worker's
	// notify.WorkerConfig.Heads).
	Heads *notify.HeadLog
	// DKIM, if set, signs every email sent through the SMTP relay
	// (PBEM_DKIM_KEY); the dev mailbox keeps messages unsigned.
	DKIM *notify.DKIM
	// Metrics, if set, counts the emails sent and failed and the deadlines
	// fired.
	Metrics *notify.Metrics
	// ReplyDomain is the domain of reply addresses (PBEM_REPLY_DOMAIN);
	// empty: emails carry no reply address.
	ReplyDomain string
	// OutboxRetention is PBEM_OUTBOX_RETENTION: sent emails older than
	// this are removed from the outbox (0:
	// notifypg.DefaultOutboxRetention; negative: kept forever).
	OutboxRetention time.Duration
}

// mailSide is the wired email side: outbox worker, the scheduler of the
// game service (timeouts, reminders, digests), and the stores the HTTP
// routes need.
type mailSide struct {
	Worker    *notify.Worker
	Scheduler *play.Scheduler
	Renderer  *notify.Renderer
	Prefs     *notifypg.Prefs
	Outbox    *notifypg.Outbox
	// Mailbox is the dev mailbox, nil when an SMTP server is configured
	// (then /dev/mail is not served).
	Mailbox notify.MailboxStore

	retention time.Duration
	log       *slog.Logger
	// smtp is the relay's sender (nil with the dev mailbox): run closes
	// its kept connections when it ends.
	smtp *notify.SMTPSender
}

// purgeEvery is how often mailSide.run removes sent emails past retention.
const purgeEvery = time.Hour

// newMailSide wires the email side on pool. Errors: a bad PBEM_SMTP_URL or
// PBEM_PUBLIC_URL, an empty secret, no timeouter.
func newMailSide(pool *pgxpool.Pool, c mailConfig) (*mailSide, error) {
	if c.Timeouter == nil {
		return nil, errors.New("mail needs the game service")
	}
	log := c.Logger
	if log == nil {
		log = slog.Default()
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: c.Secret, PublicURL: c.PublicURL, From: c.From,
		ReplyDomain: c.ReplyDomain})
	if err != nil {
		return nil, err
	}
	histories := notifypg.Histories{Games: c.Games, Events: c.Events}
	m := &mailSide{Renderer: r, Prefs: notifypg.NewPrefs(pool), Outbox: notifypg.NewOutbox(pool).WithTurns(histories),
		retention: c.OutboxRetention, log: log}
	if m.retention == 0 {
		m.retention = notifypg.DefaultOutboxRetention
	}
	var sender notify.Sender
	if c.SMTPURL == "" {
		mb := notifypg.NewMailbox(pool)
		m.Mailbox = mb
		sender = notify.NewDevMailbox(mb, log)
	} else {
		cfg, err := notify.ParseSMTPURL(c.SMTPURL)
		if err != nil {
			return nil, err
		}
		cfg.DKIM, cfg.HELO = c.DKIM, c.HELO
		if m.smtp, err = notify.NewSMTPSender(cfg, 30*time.Second); err != nil {
			return nil, err
		}
		sender = m.smtp
	}
	var timeouter play.Timeouter = c.Timeouter
	if c.Metrics != nil {
		sender, timeouter = c.Metrics.Sender(sender), c.Metrics.Timeouter(timeouter)
	}
	if m.Worker, err = notify.NewWorker(notify.WorkerConfig{Store: m.Outbox, Sender: sender, Renderer: r,
		Prefs: m.Prefs, Freshness: m.Outbox, Seats: notifypg.NewSeats(pool, histories), Wake: c.Wake, Lease: c.Lease, Senders: c.Senders, Logger: log, Heads: c.Heads}); err != nil {
		return nil, err
	}
	if m.Scheduler, err = play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(pool),
		Timeouter: timeouter, Moves: c.Moves, Away: c.Away, Digests: notifypg.NewDigester(pool, histories), Logger: log}); err != nil {
		return nil, err
	}
	return m, nil
}

// run runs the outbox worker, the scheduler and the outbox retention
// (hourly removal of sent emails older than OutboxRetention) until ctx ends.
func (m *mailSide) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); _ = m.Worker.Run(ctx) }()
	go func() { defer wg.Done(); _ = m.Scheduler.Run(ctx) }()
	go func() { defer wg.Done(); m.runRetention(ctx, m.retention) }()
	wg.Wait()
	if m.smtp != nil {
		m.smtp.Close()
	}
}

// runRetention removes sent emails older than retention now and then every
// purgeEvery, until ctx ends. retention <= 0 keeps them forever.
func (m *mailSide) runRetention(ctx context.Context, retention time.Duration) {
	if retention <= 0 {
		return
	}
	t := time.NewTicker(purgeEvery)
	defer t.Stop()
	for {
		if n, err := m.Outbox.PurgeSent(ctx, time.Now().Add(-retention), 0); err != nil && ctx.Err() == nil {
			m.log.Error("notify: outbox retention", "err", err)
		} else if n > 0 {
			m.log.Info("notify: removed sent emails past retention", "rows", n, "retention", retention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
