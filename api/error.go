package api

import (
	"errors"
	"net/http"
	"pbem/events"
	"pbem/events/play"
	"strconv"

	"github.com/labstack/echo/v4"

	"pbem/engine"
)

// codeUnavailable is the code of an error that says the database cannot
// serve now (package doc of unavailable.go): retry later.
const codeUnavailable = "unavailable"

// errorTable maps error codes to HTTP statuses, and to a Retry-After (in
// seconds) for errors that pass: the one table. Choices beyond the
// contract: a move the engine cannot read (bad_move) is a 400 like any
// malformed field; a move on a finished game (game_over) is a 409, like a
// paused or aborted one (conflict); an engine's own rule code is a 422; a
// database outage is a 503 to retry after 5 seconds (a failover takes
// that long or more; clients back off further by themselves).
var errorTable = map[string]struct{ status, retryAfter int }{
	events.CodeInvalid:      {http.StatusBadRequest, 0},
	engine.CodeBadMove:      {http.StatusBadRequest, 0},
	engine.CodeBadOptions:   {http.StatusBadRequest, 0},
	events.CodeUnauthorized: {http.StatusUnauthorized, 0},
	events.CodeForbidden:    {http.StatusForbidden, 0},
	engine.CodeNotYourTurn:  {http.StatusForbidden, 0},
	events.CodeNotFound:     {http.StatusNotFound, 0},
	events.CodeConflict:     {http.StatusConflict, 0},
	engine.CodeGameOver:     {http.StatusConflict, 0},
	engine.CodeIllegalMove:  {http.StatusUnprocessableEntity, 0},
	events.CodeInternal:     {http.StatusInternalServerError, 0},
	"method_not_allowed":    {http.StatusMethodNotAllowed, 0},
	"too_large":             {http.StatusRequestEntityTooLarge, 0},
	codeUnavailable:         {http.StatusServiceUnavailable, 5},
}

// ErrorBody is the JSON of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the code and message of an error response.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Field names the request field at fault, when one is ("options.long_game"
	// is written "long_game", a player's "players[1].email").
	Field string `json:"field,omitempty"`
}

// statusFor is the HTTP status of an error with code: the table's, else 422
// for an engine's own rule error (an illegal move with a code of its own),
// else 500.
func statusFor(code string, err error) int {
	if e, ok := errorTable[code]; ok {
		return e.status
	}
	var re *engine.RuleError
	if errors.As(err, &re) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusInternalServerError
}

// handleError is echo's error handler: every error becomes an ErrorBody.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if p := pageOf(c); p != nil && p.renderError(c, err) == nil {
		return // a page's panic, recovered by the chain: an HTML page
	}
	err = s.schemaError(c.Request().Context(), err)
	var lim *errLimited
	if errors.As(err, &lim) {
		if werr := writeLimited(c, lim); werr != nil {
			s.log.WarnContext(c.Request().Context(), "write error response", "err", werr)
		}
		return
	}
	code, msg := codeOf(err)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			code, msg = events.CodeNotFound, "no such route"
		case http.StatusMethodNotAllowed:
			code, msg = "method_not_allowed", "method not allowed"
		case http.StatusRequestEntityTooLarge:
			code, msg = "too_large", "request body too large"
		case http.StatusBadRequest:
			code, msg = events.CodeInvalid, "bad request"
		default:
			code, msg = events.CodeInternal, "internal error"
		}
	}
	status := statusFor(code, err)
	switch {
	case code == codeUnavailable:
		s.log.WarnContext(c.Request().Context(), "database unavailable", "method", c.Request().Method, "path", c.Path(),
			"err", err)
	case status >= 500 && status != http.StatusServiceUnavailable:
		s.log.ErrorContext(c.Request().Context(), "request failed", "method", c.Request().Method, "path", c.Path(),
			"err", err)
		code, msg = events.CodeInternal, "internal error"
	}
	setRetryAfter(c, code)
	var werr error
	if c.Request().Method == http.MethodHead {
		werr = c.NoContent(status)
	} else {
		werr = c.JSON(status, ErrorBody{Error: ErrorDetail{Code: code, Message: msg, Field: play.ErrorField(err)}})
	}
	if werr != nil {
		s.log.WarnContext(c.Request().Context(), "write error response", "err", werr)
	}
}

// codeOf is the code and client-safe message of err: the service's, except
// that an unexpected error saying the database cannot serve now is
// codeUnavailable.
func codeOf(err error) (code, msg string) {
	code, msg = play.ErrorCode(err), play.ErrorMessage(err)
	if code == events.CodeInternal && unavailable(err) {
		return codeUnavailable, "the database is unavailable; try again in a moment"
	}
	return code, msg
}

// setRetryAfter sets Retry-After for a code whose table entry has one.
func setRetryAfter(c echo.Context, code string) {
	if e := errorTable[code]; e.retryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(e.retryAfter))
	}
}
