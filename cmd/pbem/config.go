package main

import (
	"strings"

	"pbem/cmd/internal/https"
)

// config is pbem's configuration: every environment variable pbem reads,
// read once by loadConfig (run calls it) and passed down. Nothing else in
// the program reads the environment. Values are kept as given (trimmed) and
// checked where they are used, so that a subcommand refuses only the
// variables it needs; the table of docs/operating.md lists them all.
type config struct {
	// DatabaseURL (DATABASE_URL) is the PostgreSQL database. Unset: the
	// database "pbem" on a server on 127.0.0.1:5432 if one answers, else on
	// a private cluster in DataDir/postgres (package pgcluster).
	DatabaseURL string
	// TestDatabaseURL (PBEM_TEST_DATABASE_URL) is the server tests create
	// their databases on; `pbem db exec` sets it for its command when it is
	// unset.
	TestDatabaseURL string
	// Listen (PBEM_LISTEN, default ":8080", or ":443" with TLS) is the HTTP
	// listen address.
	Listen string
	// HTTPListen (PBEM_HTTP_LISTEN, default ":80", "off" for none) is the
	// plain-HTTP listener beside HTTPS (setupTLS).
	HTTPListen string
	// TLS (PBEM_TLS_DOMAINS, PBEM_ACME_*, PBEM_TLS_CERT, PBEM_TLS_KEY) is
	// the HTTPS configuration, checked by https.Load.
	TLS https.Settings
	// PublicURL (PBEM_PUBLIC_URL) is the server's URL as players reach it,
	// for links in emails. Unset: the listen address (defaultPublicURL),
	// http://127.0.0.1:8080 for make run's.
	PublicURL string
	// SMTPURL (PBEM_SMTP_URL, smtp://user:pass@host:port) is the mail
	// relay. Unset: mail goes to the dev mailbox at /dev/mail.
	SMTPURL string
	// MailFrom (PBEM_MAIL_FROM) is the From address of emails.
	MailFrom string
	// SMTPHelo (PBEM_SMTP_HELO) is the host name pbem gives in SMTP: in
	// EHLO to the relay and in the reply listener's greeting; default the
	// host of PBEM_PUBLIC_URL (see heloName).
	SMTPHelo string
	// Secret (PBEM_SECRET) keys the play-link tokens.
	Secret string
	// DataDir (PBEM_DATA, default "data") is the data folder: the private
	// PostgreSQL cluster and other local state.
	DataDir string
	// DKIMKey (PBEM_DKIM_KEY) is the path of a PEM private key (RSA or
	// Ed25519) that signs outgoing email, with DKIMSelector
	// (PBEM_DKIM_SELECTOR) and DKIMDomain (PBEM_DKIM_DOMAIN): all three or
	// none (see loadDKIM).
	DKIMKey, DKIMSelector, DKIMDomain string
	// OutboxRetention (PBEM_OUTBOX_RETENTION, a Go duration, default 720h)
	// is how long sent emails stay in the outbox; "0" or a negative value
	// keeps them forever.
	OutboxRetention string
	// ArchiveAfter (PBEM_ARCHIVE_AFTER, a Go duration, default 720h) is
	// how long after a game ended its events are archived (archiver); "0"
	// or a negative value archives nothing.
	ArchiveAfter string
	// MailGrace (PBEM_MAIL_GRACE, a Go duration, default 2m) is how long
	// the emails of a player's move wait, so that a move taken back sends
	// none (wiring.MailGrace reads it).
	MailGrace string
	// MailLease (PBEM_MAIL_LEASE) and MailSenders (PBEM_MAIL_SENDERS) are
	// the outbox worker's claim lease and its number of concurrent SMTP
	// conversations (mailLease, mailSenders).
	MailLease, MailSenders string
	// BotDelay (PBEM_BOT_DELAY) is how long a bot waits before it plays
	// (botDelay).
	BotDelay string
	// DecisionPause (PBEM_DECISION_PAUSE) is how long after it began a
	// bot's move or a timeout is appended at the earliest (decisionPause).
	DecisionPause string
	// AwayMaxWait (PBEM_AWAY_MAX_WAIT, a Go duration, default 336h: 14
	// days) is how long, at most, one game's deadlines wait for a player
	// who is away; AwayDays (PBEM_AWAY_DAYS, default 30) is how many days
	// of away a person may take in any 365 (awayConfig).
	AwayMaxWait, AwayDays string
	// InboundListen (PBEM_INBOUND_LISTEN), ReplyDomain (PBEM_REPLY_DOMAIN)
	// and InboundMaxBytes (PBEM_INBOUND_MAX_BYTES) configure the reply
	// listener (loadInbound).
	InboundListen, ReplyDomain, InboundMaxBytes string
	// MetricsListen (PBEM_METRICS_LISTEN) is the address that serves GET
	// /metrics apart from the pages ("": the main listener serves it);
	// MetricsToken (PBEM_METRICS_TOKEN), if set, is the bearer token it
	// requires (metricsServer).
	MetricsListen, MetricsToken string
	// Limits are the organiser and sign-in rate limits, PBEM_LIMIT_* and
	// PBEM_TRUST_PROXY (limitsOf).
	Limits limitSettings
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout
	// (PBEM_READ_HEADER_TIMEOUT, PBEM_READ_TIMEOUT, PBEM_WRITE_TIMEOUT,
	// PBEM_IDLE_TIMEOUT) are the HTTP server's timeouts (httpTimeouts).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout string
	// LogLevel (PBEM_LOG_LEVEL: debug, info, warn or error; default info)
	// is the logger's level (newLogger).
	LogLevel string
	// GOGC and GOMEMLIMIT are the Go runtime's own variables: serve sets
	// its collector only when the operator did not (wiring.TuneGC).
	GOGC, GOMEMLIMIT string
}

// limitSettings are the rate-limit variables as given (limitsOf reads
// them).
type limitSettings struct {
	GamesAddress       string // PBEM_LIMIT_GAMES_ADDRESS
	GamesIP            string // PBEM_LIMIT_GAMES_IP
	InvitationsAddress string // PBEM_LIMIT_INVITATIONS_ADDRESS
	InvitationsIP      string // PBEM_LIMIT_INVITATIONS_IP
	Signins            string // PBEM_LIMIT_SIGNINS
	RecipientMails     string // PBEM_LIMIT_RECIPIENT_MAILS
	TrustProxy         string // PBEM_TRUST_PROXY
}

// loadConfig reads the configuration from getenv, with defaults: the one
// place pbem reads its environment.
func loadConfig(getenv func(string) string) config {
	get := func(key string) string { return strings.TrimSpace(getenv(key)) }
	def := func(key, fallback string) string {
		if v := get(key); v != "" {
			return v
		}
		return fallback
	}
	c := config{
		DatabaseURL:     get("DATABASE_URL"),
		TestDatabaseURL: get("PBEM_TEST_DATABASE_URL"),
		Listen:          get("PBEM_LISTEN"),
		HTTPListen:      def("PBEM_HTTP_LISTEN", ":80"),
		TLS: https.Settings{
			Domains:   get("PBEM_TLS_DOMAINS"),
			Directory: get("PBEM_ACME_DIRECTORY"),
			Email:     get("PBEM_ACME_EMAIL"),
			CAFile:    get("PBEM_ACME_CA_FILE"),
			CertFile:  get("PBEM_TLS_CERT"),
			KeyFile:   get("PBEM_TLS_KEY"),
		},
		PublicURL: get("PBEM_PUBLIC_URL"),
		SMTPURL:   get("PBEM_SMTP_URL"),
		MailFrom:  get("PBEM_MAIL_FROM"),
		SMTPHelo:  get("PBEM_SMTP_HELO"),
		Secret:    get("PBEM_SECRET"),
		DataDir:   def("PBEM_DATA", "data"),

		DKIMKey:         get("PBEM_DKIM_KEY"),
		DKIMSelector:    get("PBEM_DKIM_SELECTOR"),
		DKIMDomain:      get("PBEM_DKIM_DOMAIN"),
		OutboxRetention: def("PBEM_OUTBOX_RETENTION", "720h"),
		ArchiveAfter:    def("PBEM_ARCHIVE_AFTER", "720h"),
		MailGrace:       get("PBEM_MAIL_GRACE"),
		MailLease:       get("PBEM_MAIL_LEASE"),
		MailSenders:     get("PBEM_MAIL_SENDERS"),
		BotDelay:        get("PBEM_BOT_DELAY"),
		DecisionPause:   get("PBEM_DECISION_PAUSE"),
		AwayMaxWait:     get("PBEM_AWAY_MAX_WAIT"),
		AwayDays:        get("PBEM_AWAY_DAYS"),

		InboundListen:   get("PBEM_INBOUND_LISTEN"),
		ReplyDomain:     get("PBEM_REPLY_DOMAIN"),
		InboundMaxBytes: get("PBEM_INBOUND_MAX_BYTES"),
		MetricsListen:   get("PBEM_METRICS_LISTEN"),
		MetricsToken:    get("PBEM_METRICS_TOKEN"),

		Limits: limitSettings{
			GamesAddress:       get("PBEM_LIMIT_GAMES_ADDRESS"),
			GamesIP:            get("PBEM_LIMIT_GAMES_IP"),
			InvitationsAddress: get("PBEM_LIMIT_INVITATIONS_ADDRESS"),
			InvitationsIP:      get("PBEM_LIMIT_INVITATIONS_IP"),
			Signins:            get("PBEM_LIMIT_SIGNINS"),
			RecipientMails:     get("PBEM_LIMIT_RECIPIENT_MAILS"),
			TrustProxy:         get("PBEM_TRUST_PROXY"),
		},
		ReadHeaderTimeout: get("PBEM_READ_HEADER_TIMEOUT"),
		ReadTimeout:       get("PBEM_READ_TIMEOUT"),
		WriteTimeout:      get("PBEM_WRITE_TIMEOUT"),
		IdleTimeout:       get("PBEM_IDLE_TIMEOUT"),
		LogLevel:          get("PBEM_LOG_LEVEL"),
		GOGC:              getenv("GOGC"),
		GOMEMLIMIT:        getenv("GOMEMLIMIT"),
	}
	if c.Listen == "" {
		c.Listen = ":8080"
		if c.TLS.Wanted() {
			c.Listen = ":443"
		}
	}
	return c
}
