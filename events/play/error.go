package play

import (
	"errors"

	"pbem/engine"
	"pbem/events"
)

// The service's errors are *events.Error values with the codes of package
// events (events.CodeInvalid, events.CodeNotFound, ...), the one error type
// of the service and its stores; the functions below read any error the
// service returns, an engine's rule error (*engine.RuleError, which keeps
// the engine's own codes) included. The API maps each code to an HTTP
// status (api/error.go).

// ErrorField returns the field an error is about (an *events.Error's or a
// *engine.RuleError's Field), "" if none.
func ErrorField(err error) string {
	if e := events.AsError(err); e != nil {
		return e.Field
	}
	if re := AsRuleError(err); re != nil {
		return re.Field
	}
	return ""
}

// ErrorCode returns the code of err: its *events.Error or
// *engine.RuleError code, events.CodeInternal for anything else, "" for
// nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	if e := events.AsError(err); e != nil {
		return e.Code
	}
	if re := AsRuleError(err); re != nil {
		return re.Code
	}
	return events.CodeInternal
}

// ErrorMessage returns the client-safe message of err ("internal error" for
// unexpected errors).
func ErrorMessage(err error) string {
	if e := events.AsError(err); e != nil {
		return e.Message
	}
	if re := AsRuleError(err); re != nil {
		return re.Message
	}
	return "internal error"
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
// *events.Error's, whose message is the service's English, or "" for an
// engine's rule error, whose message the engine words itself.
func ServiceErrorCode(err error) string {
	if AsRuleError(err) != nil {
		return ""
	}
	return ErrorCode(err)
}
