package play

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/projections"
)

// viewSample is a game row and state from which a seat's view is made.
type viewSample struct {
	g    *projections.Game
	st   engine.State
	seat int
}

// lordsViewSamples plays random four-player Lords of Scotland games and
// keeps the position before every move, the seat to move and the row that
// goes with it: views of games of every age, as the API answers them.
func lordsViewSamples(tb testing.TB, games int) []viewSample {
	tb.Helper()
	eng, err := lords.New()
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var out []viewSample
	for i := range games {
		var seed engine.Seed
		seed[0], seed[1] = byte(i), byte(i>>8)
		st, err := eng.New(engine.Setup{Players: 4, Seed: seed, Names: []string{"Ann", "Bob", "Cid", "Dee"}})
		if err != nil {
			tb.Fatal(err)
		}
		for v := int64(1); st.Result() == nil; v++ {
			seat := st.ToMove()[0]
			g := &projections.Game{ID: "g" + string(rune('a'+i)), Game: lords.Name, Language: "en", Status: projections.StatusActive,
				Version: v, ToMove: st.ToMove(), Players: []string{"Ann", "Bob", "Cid", "Dee"}}
			out = append(out, viewSample{g: g, st: st, seat: seat})
			legal := st.Legal(seat)
			evs, err := st.Decide(seat, legal[rng.IntN(len(legal))])
			if err != nil {
				tb.Fatal(err)
			}
			st = st.Clone()
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
	return out
}

// BenchmarkViewJSON makes and encodes a seat's view as GET /view and a
// move's answer do (view, then View.JSON), over the positions of random
// four-player Lords of Scotland games; "AppendJSON" is the encoding alone
// into a reused buffer (as the API writes it) and "reflection" the same
// by encoding/json, for comparison. Allocations are
// the steady figure on a busy machine.
//
//	go test ./events/play -run '^$' -bench ViewJSON -benchmem
func BenchmarkViewJSON(b *testing.B) {
	samples := lordsViewSamples(b, 8)
	b.Run("view+JSON", func(b *testing.B) {
		b.ReportAllocs()
		n, size := 0, 0
		for b.Loop() {
			s := samples[n%len(samples)]
			v, err := view(s.g, s.st, s.seat).JSON()
			if err != nil {
				b.Fatal(err)
			}
			size += len(v)
			n++
		}
		b.ReportMetric(float64(size)/float64(n), "bytes/view")
	})
	views := make([]*View, len(samples))
	for i, s := range samples {
		views[i] = view(s.g, s.st, s.seat)
	}
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		n := 0
		for b.Loop() {
			var err error
			if buf, err = views[n%len(views)].AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
			n++
		}
	})
	b.Run("reflection", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if _, err := json.Marshal(views[n%len(views)]); err != nil {
				b.Fatal(err)
			}
			n++
		}
	})
}
