package projections

import (
	"errors"
	"fmt"
)

// Error codes of the service. The API maps each to an HTTP status.
const (
	// EInvalid: malformed input (bad JSON, missing or unknown fields, bad values).
	EInvalid = "invalid"
	// EUnauthorized: missing or unknown token.
	EUnauthorized = "unauthorized"
	// EForbidden: a valid token that may not do this (e.g. audit before the end).
	EForbidden = "forbidden"
	// ENotFound: no such game (or seat).
	ENotFound = "not_found"
	// EConflict: stale version, lost race, or a game not in a state for this.
	EConflict = "conflict"
	// EInternal: a bug or an unavailable database; never caused by input.
	EInternal = "internal"
)

// Error is the service's error: a machine code, and a message safe to show to
// the client. Engine rule errors keep their own codes (engine.CodeIllegalMove...).
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

// ErrorField returns the field an error is about (an *Error's or a
// *engine.RuleError's Field), "" if none.
func ErrorField(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	if re := AsRuleError(err); re != nil {
		return re.Field
	}
	return ""
}

// ErrorCode returns the code of err: its *Error or *engine.RuleError code,
// EInternal for anything else, "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if re := AsRuleError(err); re != nil {
		return re.Code
	}
	return EInternal
}

// ErrorMessage returns the client-safe message of err ("internal error" for
// unexpected errors).
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	if re := AsRuleError(err); re != nil {
		return re.Message
	}
	return "internal error"
}
