package lords

import (
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// FuzzDecide decides arbitrary JSON moves on random states: nothing
// panics, every error is a rule error, a rejected move changes nothing, and
// an accepted one keeps every card accounted for.
func FuzzDecide(f *testing.F) {
	for _, s := range []string{
		`{"type":"recruit","slot":0}`, `{"type":"recruit","slot":5}`, `{"type":"recruit","slot":-1}`,
		`{"type":"muster","card":55,"face_up":true}`, `{"type":"muster","card":0,"face_up":false}`,
		`{"type":"power","use":true}`, `{"type":"power","use":false,"label":"x"}`,
		`{"type":"target","seat":1,"index":0}`, `{"type":"target","card":12}`,
		`{"type":"copy","seat":0,"index":99}`, `{"type":"claim","card":97}`,
		`{"type":"claim"}`, `{}`, `null`, `[1]`, `{"type":"recruit","slot":0,"x":1}`,
		`{"type":"muster","card":1e9,"face_up":true}`, `{"type":"target","seat":-5,"index":-5}`,
	} {
		f.Add(uint64(1), uint8(10), int8(0), []byte(s))
		f.Add(uint64(7), uint8(200), int8(-1), []byte(s))
	}
	g, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint8, seatDelta int8, data []byte) {
		st, err := g.New(engine.Setup{Players: 2 + int(seed%4), Options: []byte(`{"bruce":true}`), Seed: seedOf(seed)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(seed, uint64(steps)))
		for i := 0; i < int(steps) && s.Final == nil; i++ {
			randomStep(t, s, r)
		}
		seat := s.awaited() + int(seatDelta)%3
		evs, _, err := enginetest.CheckArbitraryMove(g, s, seat, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			s.Apply(e)
		}
		if err := s.checkCards(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDecodeState reads arbitrary state JSON: it is an error or a state
// whose moves can be listed without a panic.
func FuzzDecodeState(f *testing.F) {
	g, err := New()
	if err != nil {
		f.Fatal(err)
	}
	st, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(1)})
	raw, _ := st.(*State).MarshalJSON()
	f.Add(raw)
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := g.DecodeState(data)
		if err != nil {
			return
		}
		for seat := -1; seat <= s.Players(); seat++ {
			s.Legal(seat)
			s.View(seat)
			s.DefaultMove(seat)
		}
	})
}
