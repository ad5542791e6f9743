package bagpipes

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// FuzzDecide plays a few random moves of a game, then decides arbitrary
// bytes as a move: no panic, only rule errors, no change of state, and an
// accepted move's events apply cleanly.
func FuzzDecide(f *testing.F) {
	for _, m := range []string{
		`{"type":"replenish","action":"taxes"}`, `{"type":"relocate","units":2}`, `{"type":"end_turn"}`,
		`{"type":"play","card":"davids-lineage"}`, `{"type":"play","card":"forced-march","units":1}`,
		`{"type":"pass_badge","to":1}`, `{"type":"stay_home","to":2}`, `{"type":"choose","side":"england","dagger":2}`,
		`{"type":"pass"}`, `{"type":"keep_badge"}`, `{"type":"play","card":"ransom","target":-1}`, `{"type":"relocate","units":1e9}`,
	} {
		for cfg := range len(configs) {
			f.Add(uint8(cfg), uint16(cfg*7), []byte(m))
		}
	}
	f.Fuzz(func(t *testing.T, cfg uint8, steps uint16, data []byte) {
		su := setupFor(int(cfg))
		st, err := Game{}.New(su)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(steps), uint64(cfg)))
		for range int(steps % 300) {
			if st.Result() != nil {
				break
			}
			tm := st.ToMove()
			seat := tm[r.IntN(len(tm))]
			l := st.Legal(seat)
			evs, err := st.Decide(seat, l[r.IntN(len(l))])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				st.Apply(e)
			}
		}
		seat := engine.Spectator
		if tm := st.ToMove(); len(tm) > 0 {
			seat = tm[int(steps)%len(tm)]
		}
		evs, _, err := enginetest.CheckArbitraryMove(Game{}, st, seat, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
		if err := invariant(st); err != nil {
			t.Fatalf("after %s: %v", data, err)
		}
		if _, err := json.Marshal(st.View(seat)); err != nil {
			t.Fatal(err)
		}
	})
}
