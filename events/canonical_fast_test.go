package events

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// slowCanonical is CanonicalJSON's encoding/json round trip alone.
func slowCanonical(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

var fastSeeds = []string{
	// keys one of which begins the other, the next byte below the quote
	`{"a":1,"a!":2}`, `{"a!":2,"a":1}`, `{"a b":{"a":0,"a ":1},"a":2}`,
	`{"seat":2,"move":{"kind":"play","card":"K-7","target":3},"hand_size":5}`,
	` { "b" : [1, 2.50, -0, 1e3, 1E-2, true, false, null, "x"], "a": {} , "c": []} `,
	`{"a":1,"a":2}`, `{"é":"ü","e":"\u00e9"}`, `"<&>"`, `"a\u2028b"`, `"\n"`, `01`, `1.`, `-`, `[1,]`, `{"a"}`,
	`{"a":1}x`, `[[[[[]]]]]`, `"\xff"`, `123`, `-0.0e+5`, `{"b":1,"a":{"d":[{"z":0,"y":1}],"c":null}}`,
	`{"b":1,"a":2,"b":3}`, `{"c":{"y":1,"x":2},"b":[{"k":1,"j":2}],"a":0}`,
}

// The fast path answers exactly as the round trip does, or leaves it to it.
func TestCanonicalFastMatchesTheRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range fastSeeds {
		checkFast(t, []byte(s))
	}
}

func FuzzCanonicalFast(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkFast)
}

func checkFast(t *testing.T, data []byte) {
	got, ok := canonicalFast(data)
	if !ok {
		return
	}
	want, err := slowCanonical(data)
	if err != nil {
		t.Fatalf("fast path accepted %q, the round trip refuses it: %v", data, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("canonical %q: fast %s, round trip %s", data, got, want)
	}
}

// BenchmarkCanonicalJSON times a typical move event's data through the
// fast path and through the round trip, side by side.
func BenchmarkCanonicalJSON(b *testing.B) {
	data := []byte(fastSeeds[0])
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := CanonicalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("roundtrip", func(b *testing.B) {
		for b.Loop() {
			if _, err := slowCanonical(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
