package api

import (
	"net/http"
	"time"
)

// Timeouts are the HTTP server's limits on a connection. Without them a
// client that sends its request slowly (a byte every few seconds), or
// reads the answer slowly, or keeps an idle connection open, holds a
// connection and its goroutine for as long as it likes.
type Timeouts struct {
	// ReadHeader bounds reading a request's headers.
	ReadHeader time.Duration
	// Read bounds reading a whole request, body included.
	Read time.Duration
	// Write bounds the time from the end of the request's headers to the
	// end of the answer. The live-update stream (GET /play/:game/events)
	// lifts it and the read limit for itself, and bounds each of its
	// writes instead (streamWrite).
	Write time.Duration
	// Idle bounds the wait for the next request on a kept-alive
	// connection.
	Idle time.Duration
}

// DefaultTimeouts serve players on slow mobile links and still free a
// stalled connection within a minute or two.
var DefaultTimeouts = Timeouts{
	ReadHeader: 10 * time.Second,
	Read:       30 * time.Second,
	Write:      60 * time.Second,
	Idle:       120 * time.Second,
}

// NewHTTPServer returns an http.Server for h with t's limits (a zero
// field takes DefaultTimeouts' value).
func NewHTTPServer(h http.Handler, t Timeouts) *http.Server {
	def := func(v, d time.Duration) time.Duration {
		if v <= 0 {
			return d
		}
		return v
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: def(t.ReadHeader, DefaultTimeouts.ReadHeader),
		ReadTimeout:       def(t.Read, DefaultTimeouts.Read),
		WriteTimeout:      def(t.Write, DefaultTimeouts.Write),
		IdleTimeout:       def(t.Idle, DefaultTimeouts.Idle),
	}
}
