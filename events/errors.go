package events

import (
	"errors"
	"fmt"
)

// Error codes: the one set of codes of the event store, the game service
// (events/play) and the read models' stores. The ways in map each to what
// they answer (api/error.go: an HTTP status).
const (
	// CodeInvalid: malformed input (bad JSON, missing or unknown fields,
	// bad values); nothing was written.
	CodeInvalid = "invalid"
	// CodeUnauthorized: missing or unknown token.
	CodeUnauthorized = "unauthorized"
	// CodeForbidden: a valid token that may not do this (e.g. audit before
	// the end).
	CodeForbidden = "forbidden"
	// CodeNotFound: no such game (or seat, or remembered request).
	CodeNotFound = "not_found"
	// CodeConflict: the stream's version is not the expected one: a stale
	// version, a lost race, a rebuild overtaken by a move, or a game not in
	// a state for this.
	CodeConflict = "conflict"
	// CodeInternal: a bug or an unavailable database; never caused by input.
	CodeInternal = "internal"
	// CodeCorrupt: a read model that does not match its events (or a game
	// without events).
	CodeCorrupt = "corrupt"
)

// Error is the error with a code of the event store, the game service and
// the read models' stores: a machine code, and a message safe to show to
// a client. Engine rule errors keep their own type and codes
// (engine.RuleError).
type Error struct {
	Code    string
	Message string
	// Field names the request field at fault ("players[1].email",
	// "organiser.email"), for a form to show the message beside it.
	Field string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns an *Error about field.
func FieldErrorf(code, field, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Message: fmt.Sprintf(format, args...)}
}

// AsError returns the *Error in err, nil if none.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrorCode returns the code of the *Error in err, "" if none.
func ErrorCode(err error) string {
	if e := AsError(err); e != nil {
		return e.Code
	}
	return ""
}

// IsConflict reports whether err is (or wraps) a version conflict.
func IsConflict(err error) bool { return ErrorCode(err) == CodeConflict }

// IsInvalid reports whether err is (or wraps) an invalid-input error.
func IsInvalid(err error) bool { return ErrorCode(err) == CodeInvalid }

// ChainError names the first event of a stream whose hash does not match its
// content or its predecessor.
type ChainError struct {
	Stream  string
	Version int64
	Reason  string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("events: hash chain of %q broken at version %d: %s", e.Stream, e.Version, e.Reason)
}
