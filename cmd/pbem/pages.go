package main

import (
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/events"
	"pbem/events/play"
	notifypg "pbem/notify/postgres"
)

// pageConfig configures the HTML pages (lobby, play, history, audit, admin, live
// updates): CSRF tokens derive from secret, cookies are Secure when the
// public URL is https, live pages wake on the store's notifications, and the
// admin page lists the game's failed emails from the outbox; the admin link
// shown after creating a game is built on the public URL.
func pageConfig(cfg config, e *env, secret []byte, pool *pgxpool.Pool, store events.Store, svc *play.Service) *api.PageConfig {
	return &api.PageConfig{
		Service:   svc,
		Secret:    secret,
		Secure:    strings.HasPrefix(cfg.PublicURL, "https://"),
		PublicURL: cfg.PublicURL,
		Notify:    store.Notify,
		Failed:    notifypg.NewOutbox(pool),
		Zones:     notifypg.NewSeats(pool, notifypg.Histories{}),
		Logger:    e.log,
	}
}
