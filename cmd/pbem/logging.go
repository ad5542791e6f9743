package main

import (
	"io"
	"log/slog"
	"strings"

	"pbem/api"
)

// newLogger returns pbem's logger on w: text for a person when w is a
// terminal, JSON lines (one object per line, for a log collector) when it
// is not (isTerminal); at PBEM_LOG_LEVEL (debug, info, warn or error; default info:
// debug adds one line per HTTP request). Every line logged with a
// request's context carries its request id (api.LogHandler).
func newLogger(w io.Writer, level string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: logLevel(level)}
	var h slog.Handler
	if isTerminal(w) {
		h = slog.NewTextHandler(w, opts)
	} else {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(api.NewLogHandler(h))
}

// logLevel parses PBEM_LOG_LEVEL; anything else is info.
func logLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(s))); err != nil {
		return slog.LevelInfo
	}
	return l
}
