package api

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// codeUnavailable is the error code of a request that failed because the
// database could not be reached (a restart, a failover to the standby):
// 503 with Retry-After, so that clients retry rather than give up. A move
// retried with the same idempotency key is applied once.
const codeUnavailable = "unavailable"

// unavailable reports whether err comes from losing the database rather
// than from a bug: a network error or a cut connection, PostgreSQL's
// connection (08) and shutdown (57P01-57P03) errors, a write sent to a
// server that became read-only (25006, a demoted primary), or a failed
// connection attempt. The api package does not import pgx, so it
// recognises pgx's errors by behaviour (SQLState) and, for a connection
// attempt that every host refused for being read-only, by pgconn's message.
func unavailable(err error) bool {
	var st interface{ SQLState() string }
	if errors.As(err, &st) {
		s := st.SQLState()
		return strings.HasPrefix(s, "08") || s == "57P01" || s == "57P02" || s == "57P03" || s == "25006"
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	for _, e := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE} {
		if errors.Is(err, e) {
			return true
		}
	}
	return strings.Contains(err.Error(), "failed to connect to `")
}
