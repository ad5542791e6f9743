package enginetest

import (
	"encoding/json"
	"fmt"

	"pbem/engine"
)

// Rigged is Game with its first state changed by Rig: New deals as Game
// does, hands Rig the state's JSON decoded as a map (numbers as float64),
// and decodes the result with Game.DecodeState. Everything else is Game's.
//
// The fair-play tests (issue #28) deal two games from one seed, one of them
// rigged to swap two cards hidden from a seat (a card of another seat's
// hand and one deep in a deck, say), so that the two differ only in what
// that seat may not see; two seeds would differ in public cards too. A
// rigged game no longer follows from its seed: its audit does not check,
// and it is for tests only.
type Rigged struct {
	engine.Game
	Rig func(state map[string]any)
}

// New deals with Game.New and applies Rig.
func (r Rigged) New(s engine.Setup) (engine.State, error) {
	st, err := r.Game.New(s)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("enginetest: marshal %s state: %w", r.Name(), err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("enginetest: decode %s state: %w", r.Name(), err)
	}
	r.Rig(m)
	if b, err = json.Marshal(m); err != nil {
		return nil, fmt.Errorf("enginetest: marshal rigged %s state: %w", r.Name(), err)
	}
	return r.DecodeState(b)
}

// Swap returns a Rig that swaps two elements of arrays in the state:
// a[i] with b[j], where a and b name arrays by their path from the
// state's root (object keys, and array indices as int) and a
// negative index counts from the end (-1: the last).
func Swap(a []any, i int, b []any, j int) func(map[string]any) {
	return func(state map[string]any) {
		x, y := arrayAt(state, a), arrayAt(state, b)
		i, j := index(x, i), index(y, j)
		x[i], y[j] = y[j], x[i]
	}
}

// arrayAt is the array at path p of v; it panics when there is none (a
// test's mistake).
func arrayAt(v any, p []any) []any {
	for _, k := range p {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[index(v.([]any), k)]
		default:
			panic(fmt.Sprintf("enginetest: path element %v", k))
		}
	}
	a, ok := v.([]any)
	if !ok {
		panic(fmt.Sprintf("enginetest: no array at %v", p))
	}
	return a
}

// index is i in a, counted from the end when negative.
func index(a []any, i int) int {
	if i < 0 {
		i += len(a)
	}
	if i < 0 || i >= len(a) {
		panic(fmt.Sprintf("enginetest: index %d of %d elements", i, len(a)))
	}
	return i
}
