package engine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// MoveJSON writes a move's JSON object, for the engines' MarshalJSON
// methods: {"type":…, the fields the move's type uses, …, "label":…}.
//
// The fields are appended rather than marshalled from a struct: views list
// the legal moves (twice: at the top and in the engine's view) and emails
// tag them, so in the peers load test (bench/peers) the moves were most of
// encoding a view, itself a fifth of the server's CPU; appending takes
// less than half the time (BenchmarkMoveJSON: 281 ns against 654).
type MoveJSON struct{ b []byte }

// NewMoveJSON starts the object of a move of type typ.
func NewMoveJSON(typ string) *MoveJSON {
	m := &MoveJSON{b: make([]byte, 0, 96)}
	m.b = append(m.b, `{"type":`...)
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
