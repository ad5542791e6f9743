package api

import (
	"context"
	"log/slog"
)

// requestIDKey is the context key of a request's id.
type requestIDKey struct{}

// WithRequestID returns ctx carrying the request id id. The HTTP server
// puts every request's id (X-Request-ID) in its context, so that a logger
// built on LogHandler adds it to each line logged with that context.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries, or "" if none.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// LogHandler is a slog.Handler that adds the attribute request_id to every
// record logged with a context that carries a request id (see
// WithRequestID), whatever code logs it: the api package, the game
// service, the mail routes.
type LogHandler struct{ next slog.Handler }

var _ slog.Handler = LogHandler{}

// NewLogHandler returns a LogHandler that writes through next.
func NewLogHandler(next slog.Handler) LogHandler { return LogHandler{next: next} }

// Enabled implements slog.Handler.
func (h LogHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h LogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return LogHandler{next: h.next.WithAttrs(as)}
}

// WithGroup implements slog.Handler. The request id stays at the top level
// only for records logged before any group: slog puts later attributes in
// the group, which is what a caller of WithGroup asked for.
func (h LogHandler) WithGroup(name string) slog.Handler {
	return LogHandler{next: h.next.WithGroup(name)}
}

// withRequestIDs returns log, its handler wrapped in a LogHandler unless it
// is one already, so that the server's own lines carry the request id
// however the logger was built.
func withRequestIDs(log *slog.Logger) *slog.Logger {
	if _, ok := log.Handler().(LogHandler); ok {
		return log
	}
	return slog.New(NewLogHandler(log.Handler()))
}
