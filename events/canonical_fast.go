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

// member is an object member: its key (quoted) and canonical value.
type member struct{ key, val []byte }

func (p *fastParser) object(out []byte, depth int) ([]byte, bool) {
	p.i++
	var ms []member
	p.space()
	if p.i < len(p.in) && p.in[p.i] == '}' {
		p.i++
		return append(out, '{', '}'), true
	}
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
		val, ok := p.value(nil, depth+1)
		if !ok {
			return nil, false
		}
		ms = append(ms, member{key, val})
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
	}
	// Unescaped keys compare as their bytes, as encoding/json sorts them.
	slices.SortFunc(ms, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	out = append(out, '{')
	for k, m := range ms {
		if k > 0 {
			if bytes.Equal(ms[k-1].key, m.key) {
				return nil, false // a repeated key: the last one wins, let the slow path say which
			}
			out = append(out, ',')
		}
		out = append(out, m.key...)
		out = append(out, ':')
		out = append(out, m.val...)
	}
	return append(out, '}'), true
}
