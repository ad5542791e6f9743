// Command pbem is the play-by-email card game server: one binary whose
// subcommands run the server and look after its database.
//
//	pbem serve                   run the HTTP server (migrates the database first)
//	pbem migrate up|down|version apply, revert or show the schema migrations
//	pbem db ensure|stop|exec     find or start PostgreSQL (for make run / make test)
//	pbem rebuild [GAME...]       rebuild the projections from the events
//	pbem verify GAME...|--all    replay games and compare with the projections
//	pbem verify --audit FILE     check a downloaded audit record offline
//	pbem version                 print the version and commit (stamped by make release)
//
// Configuration comes from the environment (see config); flags override
// it where a subcommand has one. This package only wires: flags, env, and
// the packages that do the work.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is pbem's configuration, from the environment.
type config struct {
	// DatabaseURL (DATABASE_URL) is the PostgreSQL database. Unset: the
	// database "pbem" on a server on 127.0.0.1:5432 if one answers, else on
	// a private cluster in DataDir/postgres (package cluster).
	DatabaseURL string
	// Listen (PBEM_LISTEN, default ":8080") is the HTTP listen address.
	Listen string
	// PublicURL (PBEM_PUBLIC_URL) is the server's URL as players reach it,
	// for links in emails. Unset: http://localhost:<listen port>.
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
	// MailGrace (PBEM_MAIL_GRACE, a Go duration, default 2m) is how long
	// the emails of a player's move wait, so that a move taken back sends
	// none (wiring.MailGrace reads it).
	MailGrace string
}

// loadConfig reads the configuration from getenv, with defaults.
func loadConfig(getenv func(string) string) config {
	def := func(key, fallback string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return fallback
	}
	return config{
		DatabaseURL: def("DATABASE_URL", ""),
		Listen:      def("PBEM_LISTEN", ":8080"),
		PublicURL:   def("PBEM_PUBLIC_URL", ""),
		SMTPURL:     def("PBEM_SMTP_URL", ""),
		MailFrom:    def("PBEM_MAIL_FROM", ""),
		SMTPHelo:    def("PBEM_SMTP_HELO", ""),
		Secret:      def("PBEM_SECRET", ""),
		DataDir:     def("PBEM_DATA", "data"),

		DKIMKey:         def("PBEM_DKIM_KEY", ""),
		DKIMSelector:    def("PBEM_DKIM_SELECTOR", ""),
		DKIMDomain:      def("PBEM_DKIM_DOMAIN", ""),
		OutboxRetention: def("PBEM_OUTBOX_RETENTION", "720h"),
		MailGrace:       def("PBEM_MAIL_GRACE", ""),
	}
}

// env is what every subcommand gets: configuration, output, logger.
type env struct {
	cfg    config
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	log    *slog.Logger
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

// commands lists the subcommands; a new one adds a line here and a file of
// its own.
func commands() []command {
	return []command{
		{"serve", "run the HTTP server (applies migrations first)", serve},
		{"migrate", "up|down|version: apply, revert or show the schema migrations", migrateCmd},
		{"db", "ensure|stop|exec: find or start PostgreSQL (used by make)", dbCmd},
		{"rebuild", "[GAME...]: rebuild the projections from the events", rebuild},
		{"verify", "GAME...|--all: replay games, check hash chains, compare with projections", verify},
		{"version", "print the version and commit this binary was built from", versionCmd},
	}
}

// exitError is an error that carries the process's exit code.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run runs the subcommand of args and returns the process's exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := &env{
		cfg:    loadConfig(getenv),
		getenv: getenv,
		stdout: stdout,
		stderr: stderr,
		log:    newLogger(stderr, getenv),
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, e, args[1:])
		var ee exitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.code
		case errors.Is(err, flag.ErrHelp):
			return 0
		default:
			fmt.Fprintf(stderr, "pbem %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "pbem: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pbem <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nenvironment: DATABASE_URL, PBEM_LISTEN, PBEM_PUBLIC_URL, PBEM_SMTP_URL, PBEM_SMTP_HELO, PBEM_MAIL_FROM, PBEM_SECRET,\n  PBEM_DATA, PBEM_DKIM_KEY, PBEM_DKIM_SELECTOR, PBEM_DKIM_DOMAIN, PBEM_LOG_LEVEL,\n  PBEM_TLS_DOMAINS, PBEM_HTTP_LISTEN, PBEM_ACME_DIRECTORY, PBEM_ACME_EMAIL, PBEM_ACME_CA_FILE, PBEM_TLS_CERT, PBEM_TLS_KEY (see README.md)")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("pbem "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}
