package lords

import (
	"encoding/json"
	"testing"

	"pbem/engine"
	"pbem/engine/bot"
	"pbem/engine/enginetest"
)

// A marker card planted in another seat's hand (swapped with a card of
// the draw pile, so the state stays whole) changes nothing the bot sees
// nor any of its choices, over many decisions of the normal and strong
// bots.
func TestBotIgnoresMarkerInAnotherHand(t *testing.T) {
	enginetest.CheckBotIgnoresMarker(t, newGame(t), enginetest.MarkerOptions{Games: 4, StrongEvery: 10, MinCompared: 200,
		Plant: func(st engine.State, seat, k int) (engine.State, bool) {
			if p, ok := plantMarker(st.(*State), seat, k); ok {
				return p, true
			}
			return nil, false
		}})
}

// plantMarker returns a copy of s where a card of another seat's hand is
// swapped with one of the draw pile (chosen by k), or false if there is
// none to swap.
func plantMarker(s *State, seat, k int) (*State, bool) {
	c := s.clone()
	for d := 1; d < c.N; d++ {
		q := (seat + d) % c.N
		if len(c.Hands[q]) > 0 && len(c.Draw) > 0 {
			i, j := k%len(c.Hands[q]), k%len(c.Draw)
			c.Hands[q][i], c.Draw[j] = c.Draw[j], c.Hands[q][i]
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
// and hold every card once, at every decision of a few games.
func TestBotWorldsMatchTheView(t *testing.T) {
	g := newGame(t)
	for game := range 6 {
		n := 2 + game%4
		seed := engine.Seed{byte(game), 0x57}
		st, err := g.New(engine.Setup{Players: n, Seed: seed, Options: json.RawMessage(`{"bruce":true}`)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		var hist []engine.Event
		for s.Final == nil {
			seat := s.awaited()
			red := engine.Redacted(g, hist, seat)
			v := s.View(seat).(View)
			k := knowledgeOf(g.d, &v, red.Events())
			r := bot.NewRand(seed.BotKey(), len(hist), seat)
			w, err := k.sample(g.d, &v, r)
			if err != nil {
				t.Fatalf("game %d after %d events: %v", game, len(hist), err)
			}
			if a, b := jsonOf(t, w.Legal(seat)), jsonOf(t, v.LegalMoves); a != b {
				t.Fatalf("game %d after %d events: world moves %s, view moves %s", game, len(hist), a, b)
			}
			for q := range n {
				if q != seat && len(k.holds[q]) > 0 {
					for _, c := range k.holds[q] {
						if !contains(w.Hands[q], c) && !inArmy(w.Armies[q], c) {
							t.Fatalf("card %d seen taken by seat %d is not in its hand or army", c, q)
						}
					}
				}
			}
			m, err := g.Bot(bot.Easy, v, red, seed.BotKey(), len(hist)+1)
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

func contains(cs []int, c int) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func inArmy(a []Follower, c int) bool {
	for _, f := range a {
		if f.Card == c {
			return true
		}
	}
	return false
}
