package api

import (
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
)

// sqlStateError is an error with a SQLSTATE, as pgconn.PgError has.
type sqlStateError string

func (e sqlStateError) Error() string    { return "ERROR (SQLSTATE " + string(e) + ")" }
func (e sqlStateError) SQLState() string { return string(e) }

func TestUnavailableTellsALostDatabaseFromABug(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := net.Dial("tcp", addr)
	if refused == nil {
		t.Skip("a closed port accepted a connection")
	}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", fmt.Errorf("projections: load: %w", refused), true},
		{"connection cut", fmt.Errorf("events/postgres: commit: %w", io.ErrUnexpectedEOF), true},
		{"server shutting down", sqlStateError("57P01"), true},
		{"connection exception", sqlStateError("08006"), true},
		{"demoted primary", sqlStateError("25006"), true},
		{"no read-write host", errors.New("failed to connect to `user=postgres database=pbem`: 127.0.0.1:5433 (127.0.0.1): read only connection"), true},
		{"deadlock with a migration", sqlStateError("40P01"), true},
		{"serialization failure", sqlStateError("40001"), true},
		{"unique violation", sqlStateError("23505"), false},
		{"a bug", errors.New("projections: engine decided no events"), false},
	} {
		if got := unavailable(c.err); got != c.want {
			t.Errorf("%s: unavailable = %v, want %v", c.name, got, c.want)
		}
	}
}
