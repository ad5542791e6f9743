package engine

import "fmt"

// Stable codes of rule errors. Clients rely on them; never rename one.
const (
	// CodeNotYourTurn: the seat's decision is not awaited now.
	CodeNotYourTurn = "not_your_turn"
	// CodeIllegalMove: the move is well-formed but the rules forbid it now.
	CodeIllegalMove = "illegal_move"
	// CodeBadMove: the move is not a move of this game (unknown kind, unknown
	// or missing fields, wrong types).
	CodeBadMove = "bad_move"
	// CodeGameOver: the game has ended.
	CodeGameOver = "game_over"
	// CodeBadOptions: the setup's player count or options are invalid.
	CodeBadOptions = "bad_options"
)

// RuleError is the error every engine returns for a rejected move or setup.
type RuleError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Field names the option a bad_options error is about ("long_game",
	// "cards", "players"), for a form to show the message beside it; empty
	// when no single field is at fault.
	Field string `json:"field,omitempty"`
}

func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// Errorf returns a *RuleError with the given code and formatted message.
func Errorf(code, format string, args ...any) *RuleError {
	return &RuleError{Code: code, Message: fmt.Sprintf(format, args...)}
}
