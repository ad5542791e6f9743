package main

import (
	"bytes"
	"encoding/json"
	"errors"
)

// view is what a player keeps of a seat's view (or of a game's summary,
// which has no seat and no legal moves) between moves.
type view struct {
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// decode replaces v with the view or summary in data, keeping v's slices
// for reuse. The legal moves are copies: data may be reused after decode.
// Fields data lacks are left empty (Seat -1).
func (v *view) decode(data []byte) error {
	*v = view{Seat: -1, ToMove: v.ToMove[:0], LegalMoves: v.LegalMoves[:0]}
	// Unmarshal reads null into a struct as nothing: refuse it here.
	if b := bytes.TrimLeft(data, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return errors.New("the answer is not a JSON object")
	}
	return json.Unmarshal(data, v)
}
