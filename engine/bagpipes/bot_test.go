package bagpipes

import (
	"encoding/json"
	"testing"

	"pbem/engine"
	"pbem/engine/bot"
	"pbem/engine/enginetest"
)

// A marker planted in another seat's hidden holdings (a bagpipe card of
// its hand swapped with one of the deck; with 3+ players, one of its
// dagger cards swapped with one of the dagger deck) changes none of the
// bot's choices, over many decisions of the normal and strong bots.
func TestBotIgnoresMarkerInAnotherHand(t *testing.T) {
	enginetest.CheckBotIgnoresMarker(t, Game{}, enginetest.MarkerOptions{Games: 5, StrongEvery: 6, MinCompared: 150,
		Plant: func(st engine.State, seat, k int) (engine.State, bool) {
			if p, ok := plantMarker(st.(*state), seat, k); ok {
				return p, true
			}
			return nil, false
		}})
}

// plantMarker returns a copy of s with another seat's hidden cards
// changed, or false if there is nothing to swap.
func plantMarker(s *state, seat, k int) (*state, bool) {
	c := s.clone()
	planted := false
	for d := 1; d < c.N; d++ {
		p := &c.P[(seat+d)%c.N]
		if len(p.Hand) > 0 && len(c.Bag) > 0 {
			i, j := k%len(p.Hand), k%len(c.Bag)
			p.Hand[i], c.Bag[j] = c.Bag[j], p.Hand[i]
			planted = true
		}
		if c.N > 2 && len(p.Daggers) > 0 && len(c.Dag) > 0 {
			i, j := k%len(p.Daggers), k%len(c.Dag)
			p.Daggers[i], c.Dag[j] = c.Dag[j], p.Daggers[i]
			planted = true
		}
		if planted {
			return c, true
		}
	}
	return nil, false
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The sampled worlds list exactly the view's legal moves, in its order,
// at every decision of games of every size and variant.
func TestBotWorldsMatchTheView(t *testing.T) {
	g := Game{}
	for game, su := range []engine.Setup{
		{Players: 2}, {Players: 3}, {Players: 3, Options: json.RawMessage(`{"three_player":true}`)},
		{Players: 4}, {Players: 5, Options: json.RawMessage(`{"stay_home":true}`)}, {Players: 6},
		{Players: 4, Options: json.RawMessage(`{"long_game":true,"precise_daggers":true,"together":true}`)},
	} {
		su.Seed = engine.Seed{byte(game), 0x57}
		st, err := g.New(su)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		var hist []engine.Event
		for s.Res == nil {
			for _, seat := range s.ToMove() {
				red := engine.Redacted(g, hist, seat)
				v := s.View(seat).(View)
				w, err := knowledgeOf(&v, red.Events()).sample(&v, bot.NewRand(su.Seed.BotKey(), len(hist), seat))
				if err != nil {
					t.Fatalf("game %d after %d events: %v", game, len(hist), err)
				}
				wm, vm := w.legal(seat), v.LegalMoves
				if len(wm) != len(vm) {
					t.Fatalf("game %d after %d events, seat %d: world moves %s, view moves %s", game, len(hist), seat, jsonOf(t, wm), jsonOf(t, vm))
				}
				for i := range wm {
					if indexOfMove(vm, wm[i]) != i {
						t.Fatalf("game %d: move %d differs: %s", game, i, jsonOf(t, wm[i]))
					}
				}
			}
			seat := s.ToMove()[0]
			red := engine.Redacted(g, hist, seat)
			m, err := g.Bot(bot.Easy, s.View(seat).(View), red, su.Seed.BotKey(), len(hist)+1)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := s.Decide(seat, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				s.Apply(e)
			}
			hist = append(hist, evs...)
		}
	}
}
