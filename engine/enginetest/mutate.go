package enginetest

import (
	"encoding/json"
	"math/rand/v2"
	"sort"

	"pbem/engine"
)

// MutateMoves is the default Options.Unlisted: for a few listed moves it
// returns variants with one field changed (numbers shifted or made
// negative, booleans flipped, strings replaced), a field removed, an
// unknown field added, and some malformed JSON.
func MutateMoves(r *rand.Rand, legal []engine.Move) [][]byte {
	out := [][]byte{
		[]byte(`{}`), []byte(`null`), []byte(`[]`), []byte(`{"type":"no-such-move"}`),
		[]byte(`{"type":`), []byte(`"recruit"`),
	}
	for n := 0; n < 3 && len(legal) > 0; n++ {
		var m map[string]any
		if json.Unmarshal(mustJSON(legal[r.IntN(len(legal))]), &m) != nil {
			continue
		}
		delete(m, "label")
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		extra := clone(m)
		extra["bogus"] = 1
		out = append(out, mustJSON(extra))
		for _, k := range keys {
			if k != "type" {
				c := clone(m)
				delete(c, k)
				out = append(out, mustJSON(c))
			}
			c := clone(m)
			switch v := m[k].(type) {
			case float64:
				deltas := []float64{1, -1, 7, -100, 1000, 0.5}
				c[k] = v + deltas[r.IntN(len(deltas))]
			case bool:
				c[k] = !v
			case string:
				c[k] = v + "x"
			default:
				c[k] = "?"
			}
			out = append(out, mustJSON(c))
			c2 := clone(m)
			c2[k] = "wrong type"
			out = append(out, mustJSON(c2))
		}
	}
	return out
}

func clone(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// withoutLabel returns the JSON object raw with its "label" removed and its
// keys in canonical order, for comparing moves whatever their label.
func withoutLabel(raw []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw
	}
	delete(m, "label")
	return mustJSON(m) // encoding/json sorts map keys
}
