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
// Configuration comes from the environment, read once into config
// (config.go, loadConfig) and passed down; flags override
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
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what every subcommand gets: configuration, output, logger.
type env struct {
	cfg    config
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
		{"secret", "print a new secret for PBEM_SECRET", secretCmd},
		{"verify", "GAME...|--all: replay games, check hash chains, compare with projections", verify},
		{"archive", "[-after DURATION]: archive now the events of the games ended that long ago (PBEM_ARCHIVE_AFTER)", archiveCmd},
		{"version", "print the version and commit this binary was built from", versionCmd},
	}
}

// exitError is an error that carries the process's exit code.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run runs the subcommand of args and returns the process's exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg := loadConfig(getenv)
	e := &env{
		cfg:    cfg,
		stdout: stdout,
		stderr: stderr,
		log:    newLogger(stderr, cfg.LogLevel),
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
	fmt.Fprintln(w, "\nenvironment: DATABASE_URL, PBEM_LISTEN, PBEM_PUBLIC_URL, PBEM_SMTP_URL, PBEM_SMTP_HELO, PBEM_MAIL_FROM, PBEM_SECRET,\n  PBEM_DATA, PBEM_DKIM_KEY, PBEM_DKIM_SELECTOR, PBEM_DKIM_DOMAIN, PBEM_LOG_LEVEL,\n  PBEM_TLS_DOMAINS, PBEM_HTTP_LISTEN, PBEM_ACME_DIRECTORY, PBEM_ACME_EMAIL, PBEM_ACME_CA_FILE, PBEM_TLS_CERT, PBEM_TLS_KEY,\n  PBEM_METRICS_LISTEN, PBEM_METRICS_TOKEN, PBEM_OUTBOX_RETENTION, PBEM_ARCHIVE_AFTER (see docs/operating.md)")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("pbem "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}
