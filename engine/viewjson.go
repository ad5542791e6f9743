package engine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// ViewAppender is a SeatView that writes its own JSON: AppendJSON appends
// to b the bytes json.Marshal gives for the view, without reflection.
//
// A view is most of what the server encodes: a move's answer is the
// mover's view, and the other seats read theirs after each move. With
// encoding/json, a four-player Lords of Scotland view (6.7 KB with its
// legal moves) cost more than the rest of the answer; appended by hand it
// costs a fraction (events/play, BenchmarkViewJSON). A view that does
// not implement it is encoded by encoding/json. The conformance suite
// (enginetest) checks the bytes against encoding/json's in deep games.
type ViewAppender interface {
	SeatView
	AppendJSON(b []byte) []byte
}

// MovesView is a SeatView that holds its seat's legal moves, listed as
// State.Legal(seat) lists them on the state it was made from (a bot
// chooses among them): code that needs the view and the moves, as the
// API's view does, takes them from it rather than listing them twice. The
// conformance suite (enginetest) checks that they are the same moves.
type MovesView interface {
	SeatView
	Moves() []Move
}

// AppendString appends s as a JSON string, as encoding/json writes it
// (with <, > and & escaped, invalid UTF-8 as U+FFFD).
func AppendString(b []byte, s string) []byte {
	if !plainString(s) {
		q, _ := json.Marshal(s) // a string always marshals
		return append(b, q...)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainString reports whether encoding/json writes s as it is between
// quotes: valid UTF-8 with nothing to escape (no control character, ", \,
// <, >, &, U+2028 or U+2029).
func plainString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// AppendField appends "name": after the previous field's comma, if any:
// b's last byte is '{' for an object's first field.
func AppendField(b []byte, name string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// AppendInt appends "name":n (AppendField's rules).
func AppendInt(b []byte, name string, n int) []byte {
	return strconv.AppendInt(AppendField(b, name), int64(n), 10)
}

// AppendBool appends "name":v (AppendField's rules).
func AppendBool(b []byte, name string, v bool) []byte {
	return strconv.AppendBool(AppendField(b, name), v)
}

// AppendStringField appends "name":s (AppendField's rules).
func AppendStringField(b []byte, name, s string) []byte {
	return AppendString(AppendField(b, name), s)
}

// AppendList appends xs as a JSON array, each element by appendOne (nil is
// null, as encoding/json writes a nil slice).
func AppendList[T any](b []byte, xs []T, appendOne func(T, []byte) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(x, b)
	}
	return append(b, ']')
}

// AppendInts appends a list of ints as encoding/json writes a []int.
func AppendInts(b []byte, ns []int) []byte {
	return AppendList(b, ns, func(n int, b []byte) []byte { return strconv.AppendInt(b, int64(n), 10) })
}

// AppendMarshal appends json.Marshal(v), for the parts of a view that are
// rare or small enough to leave to encoding/json. v must be a value that
// always marshals (no channel, function, NaN or failing method): its
// error is dropped.
func AppendMarshal(b []byte, v any) []byte {
	q, _ := json.Marshal(v)
	return append(b, q...)
}
