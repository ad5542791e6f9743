package projections

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"pbem/engine"
)

// jsonAppender is a state view or move that appends its own JSON: compact
// and escaped exactly as encoding/json would write it, so it is copied
// without encoding/json's validate-and-compact pass.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// movesAppender is an engine view that carries the seat's legal moves and
// can append itself with their JSON already encoded.
type movesAppender interface {
	legalLister
	AppendJSONMoves(b, moves []byte) ([]byte, error)
}

// sameMoves reports whether a and b are the same list (same backing array
// and length), so the JSON of one is the JSON of the other.
func sameMoves(a, b []engine.Move) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// MarshalJSON writes the view as encoding/json writes its fields.
func (v *View) MarshalJSON() ([]byte, error) {
	return v.appendJSON(make([]byte, 0, 8192))
}

// AppendJSON appends the view's JSON (as MarshalJSON writes it) to b.
func (v *View) AppendJSON(b []byte) ([]byte, error) { return v.appendJSON(b) }

// appendJSON appends the view's JSON: the fields in order, an engine's
// view and moves that append themselves copied as they come, anything
// else through json.Marshal.
func (v *View) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"game_id":`...)
	b = appendString(b, v.GameID)
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(v.Seat), 10)
	b = strconv.AppendInt(append(b, `,"version":`...), v.Version, 10)
	b = append(b, `,"status":`...)
	b = appendString(b, v.Status)
	b = append(b, `,"to_move":`...)
	if v.ToMove == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range v.ToMove {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(s), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"legal_moves":`...)
	movesAt := len(b)
	var err error
	if v.LegalMoves == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, m := range v.LegalMoves {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, m); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	moves := b[movesAt:]
	b = append(b, `,"state":`...)
	if mv, ok := v.State.(movesAppender); ok && sameMoves(v.LegalMoves, mv.Moves()) {
		// The state lists the same moves: copy their bytes (append copes
		// with moves aliasing b).
		b, err = mv.AppendJSONMoves(b, moves)
	} else {
		b, err = appendValue(b, v.State)
	}
	if err != nil {
		return nil, err
	}
	b = append(b, `,"deadline":`...)
	if v.Deadline == nil {
		b = append(b, "null"...)
	} else {
		t, err := v.Deadline.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("projections: marshal view: %w", err)
		}
		b = append(b, t...)
	}
	return append(b, '}'), nil
}

// appendValue appends x's JSON: directly when it appends itself, else
// through json.Marshal.
func appendValue(b []byte, x any) ([]byte, error) {
	if a, ok := x.(jsonAppender); ok {
		return a.AppendJSON(b)
	}
	raw, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("projections: marshal view: %w", err)
	}
	return append(b, raw...), nil
}

// appendString appends s quoted: directly when it is printable ASCII
// without quotes, backslashes or HTML characters, else as json.Marshal
// writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}
