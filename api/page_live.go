package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// streamWrite bounds one write of a live-update stream.
const streamWrite = 30 * time.Second

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
	// The server's read and write timeouts (Timeouts) would cut the
	// stream: lift them for its life, and bound each write instead, so
	// that a client that stops reading is still let go. A writer that
	// cannot set deadlines (a test recorder) keeps its own.
	rc := http.NewResponseController(c.Response().Writer)
	_ = rc.SetReadDeadline(time.Now().Add(p.cfg.StreamFor + time.Minute))
	_ = rc.SetWriteDeadline(time.Now().Add(streamWrite))
	c.Response().WriteHeader(http.StatusOK)
	// Flush through the underlying writer: a writer that cannot flush
	// (a buffering middleware) delays the events instead of failing.
	flush := func() { _ = rc.Flush() }
	write := func(format string, args ...any) error {
		_ = rc.SetWriteDeadline(time.Now().Add(streamWrite))
		if _, err := fmt.Fprintf(c.Response(), format, args...); err != nil {
			return err
		}
		flush()
		return nil
	}
	send := func(v int64) error { return write("event: version\ndata: %d\n\n", v) }
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
			if err := write(": keep-alive\n\n"); err != nil {
				return nil
			}
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
