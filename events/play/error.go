package play

import (
	"errors"
	"fmt"

	"pbem/engine"
	"pbem/projections"
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
	// ECorrupt: a projection that does not match its events.
	ECorrupt = "corrupt"
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
	if f := asFault(err); f != nil {
		return faultCodes[f.Kind]
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
	if f := asFault(err); f != nil {
		return f.Message
	}
	return "internal error"
}

// faultCodes are the codes of the read models' errors (projections.Fault).
var faultCodes = map[error]string{
	projections.ErrNotFound: ENotFound,
	projections.ErrMovedOn:  EConflict,
	projections.ErrNoEvents: ECorrupt,
}

// asFault returns the read models' error in err, nil if none (or of a kind
// the service does not know, which is then internal).
func asFault(err error) *projections.Fault {
	var f *projections.Fault
	if errors.As(err, &f) && faultCodes[f.Kind] != "" {
		return f
	}
	return nil
}

// AsRuleError returns the engine's rule error in err, nil if none.
func AsRuleError(err error) *engine.RuleError {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re
	}
	return nil
}

// ServiceErrorCode is the code of err for projections.ExplainError: its
// *Error's, whose message is the service's English, or "" for an engine's
// rule error, whose message the engine words itself.
func ServiceErrorCode(err error) string {
	if AsRuleError(err) != nil {
		return ""
	}
	return ErrorCode(err)
}
