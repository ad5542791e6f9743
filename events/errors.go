package events

import (
	"errors"
	"fmt"
)

// Error codes of the event store.
const (
	// CodeConflict: the stream's version is not the expected one.
	CodeConflict = "conflict"
	// CodeInvalid: the input is malformed; nothing was written.
	CodeInvalid = "invalid"
)

// Error is the store's error for conflicts and bad input.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return "events: " + e.Code + ": " + e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// IsConflict reports whether err is (or wraps) a version conflict.
func IsConflict(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeConflict
}

// IsInvalid reports whether err is (or wraps) an invalid-input error.
func IsInvalid(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeInvalid
}

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
