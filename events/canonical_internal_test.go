package events

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// appendString's shortcut for plain ASCII writes what the encoder writes,
// for every byte value.
func TestAppendStringMatchesTheEncoder(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		for _, s := range []string{string(rune(c)), "a" + string([]byte{byte(c)}) + "b", "seat:2", "", "x\u2028y<&>"} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s)
			if got := string(appendString(nil, s)); got != strings.TrimSuffix(want.String(), "\n") {
				t.Fatalf("appendString(%q) = %s, want %s", s, got, want.String())
			}
		}
	}
}
