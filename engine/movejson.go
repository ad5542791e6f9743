package engine

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// MoveJSON writes a move's JSON object, for the engines' AppendJSON and
// MarshalJSON methods: {"type":…, the fields the move's type uses, …,
// "label":…}.
//
// The fields are appended rather than marshalled from a struct: views list
// the legal moves and emails tag them, so in the peers load test
// (bench/peers) the moves were most of encoding a view, itself a fifth of
// the server's CPU; appending takes less than half the time
// (BenchmarkMoveJSON: 281 ns against 654). An engine's move appends to
// the caller's buffer (MoveAppender), so that a list of moves is written
// without a buffer a move.
type MoveJSON struct{ b []byte }

// NewMoveJSON starts the object of a move of type typ in a buffer of its
// own.
func NewMoveJSON(typ string) *MoveJSON {
	m := AppendMoveJSON(make([]byte, 0, 96), typ)
	return &m
}

// AppendMoveJSON starts the object of a move of type typ at the end of b;
// Label returns b with the whole object appended.
func AppendMoveJSON(b []byte, typ string) MoveJSON {
	m := MoveJSON{b: append(b, `{"type":`...)}
	m.b = appendQuoted(m.b, typ)
	return m
}

// Int adds "name":n.
func (m *MoveJSON) Int(name string, n int) *MoveJSON {
	m.name(name)
	m.b = strconv.AppendInt(m.b, int64(n), 10)
	return m
}

// Bool adds "name":v.
func (m *MoveJSON) Bool(name string, v bool) *MoveJSON {
	m.name(name)
	m.b = strconv.AppendBool(m.b, v)
	return m
}

// String adds "name":s.
func (m *MoveJSON) String(name, s string) *MoveJSON {
	m.name(name)
	m.b = appendQuoted(m.b, s)
	return m
}

// Label adds "label":label and returns the finished object.
func (m *MoveJSON) Label(label string) []byte {
	m.String("label", label)
	return append(m.b, '}')
}

func (m *MoveJSON) name(name string) {
	m.b = append(append(append(m.b, ',', '"'), name...), '"', ':')
}

// appendQuoted appends s as a JSON string, as encoding/json writes it
// (which escapes <, > and & itself when it compacts a Marshaler's output).
func appendQuoted(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		q, _ := json.Marshal(s) // a string always marshals; invalid bytes become \ufffd
		return append(b, q...)
	}
	b, _ = jsontext.AppendQuote(b, s) // valid UTF-8: no error
	return b
}

// MoveAppender is a Move that appends its JSON, the bytes its MarshalJSON
// returns, to a buffer: AppendMove then writes it where the caller wants
// it (a view's list of legal moves, the bytes a choice tag hashes) without
// a buffer of its own.
type MoveAppender interface {
	Move
	AppendJSON(b []byte) []byte
}

// MarshalMove returns the bytes json.Marshal(m) returns, for code that
// encodes moves one by one (a page's buttons); AppendMove writes them
// into a buffer.
func MarshalMove(m Move) ([]byte, error) { return AppendMove(nil, m) }

// AppendMove appends to b the bytes json.Marshal(m) returns. encoding/json
// checks and copies the output of a move's MarshalJSON, escaping <, >, &,
// U+2028 and U+2029. A move's AppendJSON or MarshalJSON writes valid,
// compact JSON (MoveJSON does; enginetest checks it in deep games), so
// when its output holds none of those characters it is kept as it is,
// which saves most of the work. Other moves go through encoding/json. On
// an error, b is returned as it came.
func AppendMove(b []byte, m Move) ([]byte, error) {
	if isNilPointer(m) {
		return appendMarshalled(b, m)
	}
	if ma, ok := m.(MoveAppender); ok {
		n := len(b)
		b = ma.AppendJSON(b)
		if !needsHTMLEscape(b[n:]) {
			return b, nil
		}
		b = b[:n]
	} else if jm, ok := m.(json.Marshaler); ok {
		j, err := jm.MarshalJSON()
		if err == nil && !needsHTMLEscape(j) {
			return append(b, j...), nil
		}
	}
	return appendMarshalled(b, m)
}

// appendMarshalled appends json.Marshal(m), or returns b and the error.
func appendMarshalled(b []byte, m Move) ([]byte, error) {
	j, err := json.Marshal(m)
	if err != nil {
		return b, err
	}
	return append(b, j...), nil
}

func isNilPointer(m Move) bool {
	v := reflect.ValueOf(m)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// needsHTMLEscape reports whether b holds a character encoding/json
// escapes in a Marshaler's output: <, >, &, U+2028 or U+2029.
func needsHTMLEscape(b []byte) bool {
	for i, c := range b {
		switch c {
		case '<', '>', '&':
			return true
		case 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}
