package events

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// canonicalFast is CanonicalJSON for the usual event data: objects,
// arrays, numbers, literals and strings that need no escape (printable
// ASCII or valid UTF-8 other than U+2028 and U+2029, without quote or
// backslash). It copies such tokens as they are, drops white space and
// sorts object members, which is what the encoding/json round trip of
// CanonicalJSON produces for them, at a fraction of its cost. It reports
// false, leaving the work to that round trip, for anything else: escapes,
// repeated keys, invalid JSON.
func canonicalFast(data []byte) ([]byte, bool) {
	p := fastParser{in: data}
	out := make([]byte, 0, len(data))
	p.space()
	out, ok := p.value(out, 0)
	if !ok {
		return nil, false
	}
	p.space()
	return out, p.i == len(p.in)
}

type fastParser struct {
	in []byte
	i  int
}

// maxFastDepth bounds the recursion; deeper data takes the slow path.
const maxFastDepth = 64

func (p *fastParser) space() {
	for p.i < len(p.in) {
		switch p.in[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value(out []byte, depth int) ([]byte, bool) {
	if p.i >= len(p.in) || depth > maxFastDepth {
		return nil, false
	}
	switch c := p.in[p.i]; {
	case c == '{':
		return p.object(out, depth)
	case c == '[':
		return p.array(out, depth)
	case c == '"':
		s, ok := p.str()
		return append(out, s...), ok
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		if !p.number() {
			return nil, false
		}
		return append(out, p.in[start:p.i]...), true
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.in[p.i:], []byte(lit)) {
				p.i += len(lit)
				return append(out, lit...), true
			}
		}
		return nil, false
	}
}

// str returns the next string token, quotes included, if it needs no escape.
func (p *fastParser) str() ([]byte, bool) {
	start := p.i
	p.i++
	for p.i < len(p.in) {
		c := p.in[p.i]
		switch {
		case c == '"':
			p.i++
			return p.in[start:p.i], true
		case c == '\\' || c < 0x20:
			return nil, false
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, n := utf8.DecodeRune(p.in[p.i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return nil, false
			}
			p.i += n
		}
	}
	return nil, false
}

// number skips one JSON number (RFC 8259 grammar).
func (p *fastParser) number() bool {
	digits := func() int {
		n := 0
		for p.i < len(p.in) && p.in[p.i] >= '0' && p.in[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.in[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.in) && p.in[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return false
	}
	if p.i < len(p.in) && p.in[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return false
		}
	}
	if p.i < len(p.in) && (p.in[p.i] == 'e' || p.in[p.i] == 'E') {
		p.i++
		if p.i < len(p.in) && (p.in[p.i] == '+' || p.in[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

func (p *fastParser) array(out []byte, depth int) ([]byte, bool) {
	p.i++
	out = append(out, '[')
	p.space()
	if p.i < len(p.in) && p.in[p.i] == ']' {
		p.i++
		return append(out, ']'), true
	}
	for {
		var ok bool
		p.space()
		if out, ok = p.value(out, depth+1); !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.in) {
			return nil, false
		}
		switch p.in[p.i] {
		case ',':
			p.i++
			out = append(out, ',')
		case ']':
			p.i++
			return append(out, ']'), true
		default:
			return nil, false
		}
	}
}

// member is an object member written to the output: its key (quoted)
// starts at start and is keyLen bytes long, its value ends at end.
type member struct{ start, keyLen, end int }

// object writes the object at p.i to out, its members sorted. Each member
// goes to out as it is read; only an object whose keys are not already in
// order is then rewritten in order.
func (p *fastParser) object(out []byte, depth int) ([]byte, bool) {
	p.i++
	open := len(out)
	out = append(out, '{')
	p.space()
	if p.i < len(p.in) && p.in[p.i] == '}' {
		p.i++
		return append(out, '}'), true
	}
	var room [16]member
	ms := room[:0]
	for {
		p.space()
		if p.i >= len(p.in) || p.in[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.in) || p.in[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		start := len(out)
		out = append(append(out, key...), ':')
		if out, ok = p.value(out, depth+1); !ok {
			return nil, false
		}
		ms = append(ms, member{start, len(key), len(out)})
		p.space()
		if p.i >= len(p.in) {
			return nil, false
		}
		if p.in[p.i] == '}' {
			p.i++
			break
		}
		if p.in[p.i] != ',' {
			return nil, false
		}
		p.i++
		out = append(out, ',')
	}
	out = append(out, '}')
	return sortMembers(out, open, ms)
}

// sortMembers puts the members ms of the object written at out[open:] in
// the order of their keys' bytes, as encoding/json sorts a map's keys (the
// round trip of CanonicalJSON). Keys are compared without their quotes:
// with them, a key that begins another, the other's next byte a space or
// "!" (below the quote), sorted after it, where the round trip sorts it
// before ({"a!":2,"a":1} against {"a":1,"a!":2}), and the same data had two
// canonical forms. No key pbem writes holds a space or "!", so no stored
// hash changes. It reports false for a repeated key (the last one wins:
// the slow path says which).
func sortMembers(out []byte, open int, ms []member) ([]byte, bool) {
	key := func(m member) []byte { return out[m.start+1 : m.start+m.keyLen-1] }
	sorted := true
	for k := 1; k < len(ms); k++ {
		switch c := bytes.Compare(key(ms[k-1]), key(ms[k])); {
		case c == 0:
			return nil, false
		case c > 0:
			sorted = false
		}
	}
	if sorted {
		return out, true
	}
	slices.SortFunc(ms, func(a, b member) int { return bytes.Compare(key(a), key(b)) })
	for k := 1; k < len(ms); k++ {
		if bytes.Equal(key(ms[k-1]), key(ms[k])) {
			return nil, false
		}
	}
	obj := make([]byte, 0, len(out)-open)
	obj = append(obj, '{')
	for k, m := range ms {
		if k > 0 {
			obj = append(obj, ',')
		}
		obj = append(obj, out[m.start:m.end]...)
	}
	obj = append(obj, '}')
	copy(out[open:], obj)
	return out, true
}
