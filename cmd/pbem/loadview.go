package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// loadView is what a player keeps of its view between moves.
type loadView struct {
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
	raw        []byte            // LegalMoves' bytes: a view owns them
}

// reset clears the view for another decode, keeping its buffers.
func (v *loadView) reset() {
	*v = loadView{ToMove: v.ToMove[:0], LegalMoves: v.LegalMoves[:0], raw: v.raw[:0]}
}

// decode reads the fields of a loadView from a view or a summary, as
// json.Unmarshal would, and stops reading as soon as it has all of them: a
// view lists them before its state, which a player of random moves need
// not decode. Fields may come in any order (what comes before the last of
// them is scanned, and its syntax checked); absent fields are left as they
// are; data must be an object (not even null). The legal moves are
// copied: data may be reused after decode.
func (v *loadView) decode(data []byte) error {
	const all = 1<<5 - 1
	seen := 0
	return jsonMembers(data, func(key, val []byte) (bool, error) {
		switch string(key) {
		case "seat":
			n, null, err := jsonInt("seat", val)
			if err != nil {
				return false, err
			}
			if !null {
				v.Seat = int(n)
			}
			seen |= 1
		case "version":
			n, null, err := jsonInt("version", val)
			if err != nil {
				return false, err
			}
			if !null {
				v.Version = n
			}
			seen |= 2
		case "status":
			if err := jsonString("status", val, &v.Status); err != nil {
				return false, err
			}
			seen |= 4
		case "to_move":
			if val[0] == 'n' {
				v.ToMove = nil
			} else if val[0] != '[' {
				return false, fmt.Errorf("loadtest: to_move: %.40s is not an array", val)
			} else {
				v.ToMove = v.ToMove[:0]
				if v.ToMove == nil {
					v.ToMove = make([]int, 0, 4)
				}
				err := jsonElems(val, func(e []byte) error {
					n, _, err := jsonInt("to_move", e)
					v.ToMove = append(v.ToMove, int(n))
					return err
				})
				if err != nil {
					return false, err
				}
			}
			seen |= 8
		case "legal_moves":
			if val[0] == 'n' {
				v.LegalMoves = nil
			} else if val[0] != '[' {
				return false, fmt.Errorf("loadtest: legal_moves: %.40s is not an array", val)
			} else {
				v.raw = append(v.raw[:0], val...)
				v.LegalMoves = v.LegalMoves[:0]
				if v.LegalMoves == nil {
					v.LegalMoves = make([]json.RawMessage, 0, 16)
				}
				err := jsonElems(v.raw, func(e []byte) error {
					v.LegalMoves = append(v.LegalMoves, e)
					return nil
				})
				if err != nil {
					return false, err
				}
			}
			seen |= 16
		}
		return seen == all, nil
	})
}

// jsonStringField returns the string member key of the JSON object data.
func jsonStringField(data []byte, key string) (string, error) {
	var s string
	found := false
	err := jsonMembers(data, func(k, val []byte) (bool, error) {
		if string(k) != key {
			return false, nil
		}
		found = true
		return true, jsonString(key, val, &s)
	})
	if err == nil && !found {
		err = fmt.Errorf("loadtest: no %q in the answer", key)
	}
	return s, err
}

// jsonInt reads an integer member (a JSON value already checked by
// jsonScan) named field; null: it is null.
func jsonInt(field string, val []byte) (n int64, null bool, err error) {
	if string(val) == "null" {
		return 0, true, nil
	}
	n, err = strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("loadtest: %s: %.40s is not an integer", field, val)
	}
	return n, false, nil
}

// jsonString reads a string member (a JSON value already checked by
// jsonScan) named field into *dst, which null leaves as it is. It
// allocates only for a string that is neither *dst nor a game status.
func jsonString(field string, val []byte, dst *string) error {
	switch {
	case string(val) == "null":
		return nil
	case val[0] != '"':
		return fmt.Errorf("loadtest: %s: %.40s is not a string", field, val)
	case bytes.IndexByte(val, '\\') >= 0:
		return json.Unmarshal(val, dst)
	}
	switch s := val[1 : len(val)-1]; string(s) {
	case *dst:
	case "active": // the statuses a load client reads again and again
		*dst = "active"
	case "finished":
		*dst = "finished"
	default:
		*dst = string(s)
	}
	return nil
}

// jsonMaxDepth is the deepest nesting jsonScan reads (as encoding/json).
const jsonMaxDepth = 10000

// jsonScan reads JSON text from data at i, checking its syntax as it goes
// (not the UTF-8 of strings, which encoding/json does not reject either).
type jsonScan struct {
	data []byte
	i    int
}

func (s *jsonScan) fail(what string) error {
	return fmt.Errorf("loadtest: malformed JSON: %s at byte %d", what, s.i)
}

// ws skips white space.
func (s *jsonScan) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// jsonMembers calls f with each member of the JSON object data, in order:
// its key (unescaped) and its value (as written), until f returns stop or
// an error, or the object ends.
func jsonMembers(data []byte, f func(key, val []byte) (stop bool, err error)) error {
	s := jsonScan{data: data}
	s.ws()
	if s.i >= len(data) || data[s.i] != '{' {
		return errors.New("loadtest: not a JSON object")
	}
	s.i++
	s.ws()
	if s.i < len(data) && data[s.i] == '}' {
		s.i++
		return s.end()
	}
	for {
		s.ws()
		at := s.i
		key, esc, err := s.str()
		if err != nil {
			return err
		}
		if esc {
			var k string
			if err := json.Unmarshal(data[at:s.i], &k); err != nil {
				return fmt.Errorf("loadtest: malformed JSON: %w", err)
			}
			key = []byte(k)
		}
		s.ws()
		if s.i >= len(data) || data[s.i] != ':' {
			return s.fail("expected ':'")
		}
		s.i++
		s.ws()
		at = s.i
		if err := s.value(1); err != nil {
			return err
		}
		if stop, err := f(key, data[at:s.i]); stop || err != nil {
			return err
		}
		s.ws()
		if s.i >= len(data) {
			return s.fail("unexpected end")
		}
		switch data[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return s.end()
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// jsonElems calls f with each element of the JSON array val, as written.
func jsonElems(val []byte, f func(elem []byte) error) error {
	s := jsonScan{data: val}
	s.ws()
	if s.i >= len(val) || val[s.i] != '[' {
		return errors.New("loadtest: not a JSON array")
	}
	s.i++
	s.ws()
	if s.i < len(val) && val[s.i] == ']' {
		return nil
	}
	for {
		s.ws()
		at := s.i
		if err := s.value(1); err != nil {
			return err
		}
		if err := f(val[at:s.i]); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(val) {
			return s.fail("unexpected end")
		}
		switch val[s.i] {
		case ',':
			s.i++
		case ']':
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// end checks that only white space follows.
func (s *jsonScan) end() error {
	s.ws()
	if s.i != len(s.data) {
		return s.fail("data after the value")
	}
	return nil
}

// value skips one value at s.i; depth is its nesting.
func (s *jsonScan) value(depth int) error {
	s.ws()
	if s.i >= len(s.data) {
		return s.fail("unexpected end")
	}
	switch c := s.data[s.i]; {
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '{' || c == '[':
		if depth > jsonMaxDepth {
			return s.fail("nesting too deep")
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.i++
		s.ws()
		if s.i < len(s.data) && s.data[s.i] == closer {
			s.i++
			return nil
		}
		for {
			if c == '{' {
				s.ws()
				if _, _, err := s.str(); err != nil {
					return err
				}
				s.ws()
				if s.i >= len(s.data) || s.data[s.i] != ':' {
					return s.fail("expected ':'")
				}
				s.i++
			}
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.ws()
			if s.i >= len(s.data) {
				return s.fail("unexpected end")
			}
			switch s.data[s.i] {
			case ',':
				s.i++
			case closer:
				s.i++
				return nil
			default:
				return s.fail("expected ',' or a closing bracket")
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(s.data[s.i:], []byte(lit)) {
			s.i += len(lit)
			return nil
		}
	}
	return s.fail("unexpected character")
}

// str reads a string at s.i (its opening quote) and returns its contents as
// written; esc: they hold escapes.
func (s *jsonScan) str() (raw []byte, esc bool, err error) {
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return nil, false, s.fail("expected a string")
	}
	d := s.data
	for i := s.i + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			raw = d[s.i+1 : i]
			s.i = i + 1
			return raw, esc, nil
		case c == '\\':
			esc = true
			i++
			if i >= len(d) {
				break
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || !isHex4(d[i+1:i+5]) {
					s.i = i
					return nil, false, s.fail(`bad \u escape`)
				}
				i += 4
			default:
				s.i = i
				return nil, false, s.fail("bad escape")
			}
		case c < 0x20:
			s.i = i
			return nil, false, s.fail("control character in a string")
		}
	}
	s.i = len(d)
	return nil, false, s.fail("unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a number at s.i.
func (s *jsonScan) number() error {
	d, i := s.data, s.i
	digits := func() bool {
		at := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > at
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		s.i = i
		return s.fail("bad number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			s.i = i
			return s.fail("bad number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			s.i = i
			return s.fail("bad number")
		}
	}
	s.i = i
	return nil
}
