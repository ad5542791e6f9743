package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"pbem/api"
	"pbem/cmd/internal/https"
	"pbem/cmd/internal/wiring"
	"pbem/events"
	"pbem/events/play"
	evpg "pbem/events/postgres"
	"pbem/migrations"
	ppg "pbem/projections/postgres"
)

// serve runs the HTTP server until ctx ends (SIGINT or SIGTERM):
//
//  1. find or start PostgreSQL and apply the migrations (openDatabase);
//  2. open the pool and the event store;
//  3. build the HTTP handler (newHandler: the wiring point for the API);
//  4. listen (with the timeouts of PBEM_*_TIMEOUT), and print "pbem: listening on http://ADDR"
//     (https:// with TLS, see listenTLS) on stdout;
//  5. on a signal: stop accepting, let requests finish (10 s), close the
//     store and the pool, and stop the private cluster if serve started it.
//
// Background workers (outbox, deadlines, the schema watch of
// schemawatch.go) start after step 2 with ctx and are waited for in step 5.
func serve(ctx context.Context, e *env, args []string) error {
	tlsCfg, err := https.Load(e.cfg.TLS, e.cfg.DataDir)
	if err != nil {
		return err
	}
	fs := newFlagSet(e, "serve")
	listen := fs.String("listen", e.cfg.Listen, "listen address (PBEM_LISTEN; default :443 with TLS)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if e.cfg.Secret != "" {
		if err := checkSecret(e.cfg.Secret); err != nil {
			return err
		}
	}
	wiring.TuneGC(e.cfg.GOGC, e.cfg.GOMEMLIMIT)
	timeouts, err := httpTimeouts(e.cfg)
	if err != nil {
		return err
	}

	db, err := openDatabase(ctx, e)
	if err != nil {
		return err
	}
	defer func() {
		if err := db.Close(); err != nil {
			e.log.Error("stop PostgreSQL", "err", err)
		}
	}()
	e.log.Info("database", "source", db.Source)
	if err := db.migrate(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	db.appName = servingAppName
	pool, err := db.pool(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	pgStore := evpg.New(pool)
	defer pgStore.Close()
	metrics := newServeMetrics(pool)
	store := metrics.store(pgStore)

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	cfg := e.cfg
	if cfg.PublicURL == "" {
		cfg.PublicURL = defaultPublicURL(tlsCfg, ln.Addr())
	}

	pause, err := decisionPause(e.cfg.DecisionPause)
	if err != nil {
		return err
	}
	archiveAge, err := archiveAfter(e.cfg.ArchiveAfter)
	if err != nil {
		return err
	}
	alarm, botWake := &mailAlarm{}, make(chan struct{}, 1)
	svc, err := newService(e, pool, store, func(c *play.Config) {
		c.Moved, c.DecisionPause, c.MailDue = metrics.moved, pause, alarm.at
		c.BotAwaited = func() { kick(botWake) }
	})
	if err != nil {
		return err
	}
	secret, err := loadSecret(e)
	if err != nil {
		return err
	}
	latest, err := migrations.Latest()
	if err != nil {
		return err
	}
	watch := &schemaWatch{pool: pool, latest: latest, forget: svc.ForgetCached, log: e.log}
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { watch.run(watchCtx); close(watched) }()
	defer func() { stopWatch(); <-watched }()
	mailCfg, stopMail, err := startMail(ctx, e, cfg, secret, pool, store, svc, metrics, alarm)
	if err != nil {
		return err
	}
	defer stopMail()
	stopBots, err := startBots(ctx, e, pool, botWake, svc)
	if err != nil {
		return err
	}
	defer stopBots()
	defer startRecords(ctx, e, store, svc)()
	defer startArchive(ctx, e.log, ppg.NewArchiver(pgStore), archiveAge)()
	pagesCfg := pageConfig(cfg, e, secret, pool, store, svc)
	limits, trustProxy, err := limitsOf(e.cfg.Limits)
	if err != nil {
		return err
	}
	handler := newHandler(handlerDeps{cfg: cfg, pool: pool, store: store, svc: svc, log: e.log, health: healthCheck(pool),
		pages: pagesCfg, mail: mailCfg, metrics: metrics.reg, metricsToken: e.cfg.MetricsToken, metricsApart: e.cfg.MetricsListen != "",
		limits: limits, trustProxy: trustProxy, hsts: tlsCfg.Enabled(), ready: watch.ready})

	srv := api.NewHTTPServer(handler, timeouts)
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	servers := []*http.Server{srv}
	served := make(chan error, 3)
	if e.cfg.MetricsListen != "" {
		msrv, mln, err := listenMetrics(e, metrics.reg, timeouts)
		if err != nil {
			return err
		}
		servers = append(servers, msrv)
		go func() { served <- msrv.Serve(mln) }()
	} else if tlsCfg.Enabled() && e.cfg.MetricsToken == "" {
		e.log.Warn("GET /metrics is open to anyone on the main listener: set PBEM_METRICS_LISTEN (e.g. 127.0.0.1:9090) or PBEM_METRICS_TOKEN")
	}
	scheme := "http"
	if tlsCfg.Enabled() {
		plain, err := setupTLS(e, tlsCfg, cfg.PublicURL, srv, ln, timeouts)
		if err != nil {
			return err
		}
		if plain != nil {
			servers = append(servers, plain.srv)
			go func() { served <- plain.srv.Serve(plain.ln) }()
		}
		scheme = "https"
	}
	go func() {
		if srv.TLSConfig != nil {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(api.OneWrite(ln))
		}
	}()
	fmt.Fprintf(e.stdout, "pbem: listening on %s://%s\n", scheme, ln.Addr())
	e.log.Info("serving", "addr", ln.Addr().String(), "public_url", cfg.PublicURL)

	select {
	case err := <-served:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	e.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range servers {
		if err := s.Shutdown(sctx); err != nil {
			e.log.Warn("shutdown", "err", err)
		}
	}
	for range servers {
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// handlerDeps is what the HTTP handler is built from.
type handlerDeps struct {
	cfg    config
	pool   *pgxpool.Pool
	store  events.Store
	svc    *play.Service
	log    *slog.Logger
	health func(context.Context) error
	// pages and mail configure the HTML pages and the mail routes.
	pages *api.PageConfig
	mail  *api.MailConfig
	// metrics, if set, is served at GET /metrics with the request metrics
	// (unless metricsApart: on PBEM_METRICS_LISTEN), requiring
	// metricsToken if set.
	metrics      *prometheus.Registry
	metricsToken string
	metricsApart bool
	// limits and trustProxy configure the rate limits (limitsFromEnv).
	limits     api.Limits
	trustProxy bool
	// hsts sends Strict-Transport-Security on HTTPS answers.
	hsts bool
	// ready, if set, answers 503 while the schema is being migrated
	// (schemaWatch).
	ready func(ctx context.Context, fresh bool) error
}

// newHandler returns the HTTP handler: the api package's server, with GET
// /healthz answering {"status":"ok"} (200) or 503 when deps.health fails.
func newHandler(deps handlerDeps) http.Handler {
	return api.New(api.Config{Service: deps.svc, Logger: deps.log, Health: deps.health, Pages: deps.pages,
		Mail: deps.mail, Metrics: deps.metrics, MetricsToken: deps.metricsToken, MetricsApart: deps.metricsApart, Limits: deps.limits, TrustProxy: deps.trustProxy, HSTS: deps.hsts, Ready: deps.ready})
}

// healthCheck returns the health check: the database answers and its
// schema is at the binary's latest migration or later (the next release's,
// compatible: migrations/README.md), not dirty.
func healthCheck(pool *pgxpool.Pool) func(context.Context) error {
	return func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		var version int64
		var dirty bool
		if err := pool.QueryRow(ctx, `SELECT version, dirty FROM schema_migrations`).Scan(&version, &dirty); err != nil {
			return fmt.Errorf("database: %w", err)
		}
		latest, err := migrations.Latest()
		if err != nil {
			return err
		}
		if dirty || version < int64(latest) {
			return fmt.Errorf("database at migration %d (dirty %v), want %d", version, dirty, latest)
		}
		return nil
	}
}
