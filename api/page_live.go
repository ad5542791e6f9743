package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// events: GET /play/:game/events, a server-sent event stream of the game's
// version for the seat whose cookie comes with it. It sends the version at
// once and again whenever it changes (woken by the store's Notify, checked
// every Poll anyway, which is also the heartbeat), and ends after StreamFor
// (the browser's EventSource reconnects by itself).
func (p *pages) events(c echo.Context) error {
	id := c.Param("game")
	tok, err := cookieToken(c, seatCookie)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), p.cfg.StreamFor)
	defer cancel()
	ver, err := p.svc.SeatVersion(ctx, id, tok)
	if err != nil {
		return err
	}
	var wake <-chan struct{}
	if p.cfg.Notify != nil {
		if wake, err = p.cfg.Notify(ctx); err != nil {
			return err
		}
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(http.StatusOK)
	// Flush through the underlying writer: a writer that cannot flush
	// (a buffering middleware) delays the events instead of failing.
	rc := http.NewResponseController(c.Response().Writer)
	flush := func() { _ = rc.Flush() }
	send := func(v int64) error {
		if _, err := fmt.Fprintf(c.Response(), "event: version\ndata: %d\n\n", v); err != nil {
			return err
		}
		flush()
		return nil
	}
	if err := send(ver); err != nil {
		return nil
	}
	tick := time.NewTicker(p.cfg.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-wake:
			if !ok {
				wake = nil // the store closed: keep polling
			}
		case <-tick.C:
			if _, err := fmt.Fprint(c.Response(), ": keep-alive\n\n"); err != nil {
				return nil
			}
			flush()
		}
		cur, err := p.svc.SeatVersion(ctx, id, tok)
		if err != nil {
			// A revoked link or a closing stream: end it; the page keeps working.
			return nil
		}
		if cur != ver {
			ver = cur
			if err := send(ver); err != nil {
				return nil
			}
		}
	}
}
