package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/projections"
)

// statusOf maps error codes to HTTP statuses: the one table. Choices beyond
// the contract: a move the engine cannot read (bad_move) is a 400 like any
// malformed field; a move on a finished game (game_over) is a 409, like a
// paused or aborted one (conflict); an engine's own rule code is a 422.
var statusOf = map[string]int{
	projections.EInvalid:      http.StatusBadRequest,
	engine.CodeBadMove:        http.StatusBadRequest,
	engine.CodeBadOptions:     http.StatusBadRequest,
	projections.EUnauthorized: http.StatusUnauthorized,
	projections.EForbidden:    http.StatusForbidden,
	engine.CodeNotYourTurn:    http.StatusForbidden,
	projections.ENotFound:     http.StatusNotFound,
	projections.EConflict:     http.StatusConflict,
	engine.CodeGameOver:       http.StatusConflict,
	engine.CodeIllegalMove:    http.StatusUnprocessableEntity,
	projections.EInternal:     http.StatusInternalServerError,
	"method_not_allowed":      http.StatusMethodNotAllowed,
	"too_large":               http.StatusRequestEntityTooLarge,
	"unavailable":             http.StatusServiceUnavailable,
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
	if status, ok := statusOf[code]; ok {
		return status
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
	var lim *errLimited
	if errors.As(err, &lim) {
		if werr := writeLimited(c, lim); werr != nil {
			s.log.Warn("write error response", "err", werr)
		}
		return
	}
	code, msg := projections.ErrorCode(err), projections.ErrorMessage(err)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			code, msg = projections.ENotFound, "no such route"
		case http.StatusMethodNotAllowed:
			code, msg = "method_not_allowed", "method not allowed"
		case http.StatusRequestEntityTooLarge:
			code, msg = "too_large", "request body too large"
		case http.StatusBadRequest:
			code, msg = projections.EInvalid, "bad request"
		default:
			code, msg = projections.EInternal, "internal error"
		}
	}
	status := statusFor(code, err)
	if status >= 500 && status != http.StatusServiceUnavailable {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Path(),
			"request_id", requestID(c), "err", err)
		code, msg = projections.EInternal, "internal error"
	}
	var werr error
	if c.Request().Method == http.MethodHead {
		werr = c.NoContent(status)
	} else {
		werr = c.JSON(status, ErrorBody{Error: ErrorDetail{Code: code, Message: msg, Field: projections.ErrorField(err)}})
	}
	if werr != nil {
		s.log.Warn("write error response", "err", werr)
	}
}
