package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
)

// unavailable reports whether err says that the database cannot serve
// now, rather than that a request or the code is wrong: such errors are
// answered 503 with Retry-After (errorTable), not 500.
//
// The api package does not import the database driver (pgx stays in the
// Postgres packages), so errors are recognised by what the driver's error
// types show through the standard library: the SQLSTATE of a server error
// (a method SQLState() string), the network error underneath a failed dial
// or a dropped connection, and the driver's "safe to retry" mark on an
// error that happened before anything was sent. They are:
//
//   - the server refuses or drops connections: SQLSTATE class 08
//     (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
//     57P03 cannot_connect_now (starting up or shutting down);
//   - a read-only server (a standby, or a primary during a failover):
//     25006 read_only_sql_transaction;
//   - the server is out of resources: class 53 (too many connections,
//     disk full, out of memory);
//   - the network: connection refused or reset, a dial or read timeout,
//     the connection closed in the middle of a reply (EOF);
//   - the pool: no connection within the deadline, or a connection found
//     closed before the query was sent;
//   - another session holds what a statement needs, as a migration
//     running under the server does: 40P01 deadlock_detected (PostgreSQL
//     gave this transaction up to break a cycle), 40001
//     serialization_failure, 55P03 lock_not_available (lock_timeout). The
//     transaction left nothing behind and the request may be sent again;
//   - the schema is being migrated under the server: ErrSchemaNotReady
//     (Config.Ready; see schemaError for a missing table met by a query).
func unavailable(err error) bool { return outage(err) != "" }

// schemaError is err marked with ErrSchemaNotReady when it says that a
// table, column, function or type is missing (42P01 undefined_table,
// 42703 undefined_column, 42883 undefined_function, 42704
// undefined_object) and Config.Ready, asked to look again, says the
// schema is being migrated: then it is an outage (503), not a fault of
// the code (500, as without Config.Ready).
func (s *Server) schemaError(ctx context.Context, err error) error {
	var st interface{ SQLState() string }
	if s.cfg.Ready == nil || !errors.As(err, &st) {
		return err
	}
	switch st.SQLState() {
	case "42P01", "42703", "42883", "42704":
		if rerr := s.cfg.Ready(ctx, true); rerr != nil {
			return fmt.Errorf("%w: %w", rerr, err)
		}
	}
	return err
}

// ErrSchemaNotReady is the error of Config.Ready when the database's schema
// is not one this binary can serve (a migration is running): requests are
// answered 503 until it is.
var ErrSchemaNotReady = errors.New("the database's schema is being migrated")

// outageSchema is the outage name of a schema being migrated.
const outageSchema = "schema being migrated"

// outage names the kind of database outage err shows (see unavailable), or
// is "" when err shows none. The names are what /healthz reports.
func outage(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, ErrSchemaNotReady) {
		return outageSchema
	}
	var st interface{ SQLState() string }
	if errors.As(err, &st) {
		switch code := st.SQLState(); {
		case strings.HasPrefix(code, "08"):
			return "connection failure"
		case strings.HasPrefix(code, "53"):
			return "out of resources"
		case code == "57P01", code == "57P02", code == "57P03":
			return "shutting down or starting up"
		case code == "25006":
			return "read-only (standby or failover)"
		case code == "40P01", code == "40001", code == "55P03":
			return "lock conflict"
		}
		return ""
	}
	var op *net.OpError
	var retry interface{ SafeToRetry() bool }
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection lost"
	case errors.As(err, &op):
		return "network error"
	case errors.As(err, &retry) && retry.SafeToRetry():
		return "connection lost"
	case strings.Contains(err.Error(), "failed to connect to `"):
		// pgconn's error when every host of a multi-host URL refused the
		// connection or was read-only (target_session_attrs=read-write).
		return "connection failure"
	}
	return ""
}
