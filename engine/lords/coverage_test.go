package lords

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// TestRandomPlayReachesEveryRule checks that random play, as used by
// TestRandomGames, goes through every kind of event, every power used and
// copied, reshuffles, redrawn supporters and kept MacDonnells: the property
// checks then cover them all. (Passing needs an empty hand and five empty
// recruit places; the scenario ruling02_pass covers it.)
func TestRandomPlayReachesEveryRule(t *testing.T) {
	g := newGame(t)
	seen := map[string]int{}
	for i := range 1500 {
		su := randomSetup(i)
		st, err := g.New(su)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(uint64(i), 5))
		for s.Final == nil {
			for _, e := range randomStep(t, s, r) {
				seen[e.EventType()]++
				switch e := e.(type) {
				case PowerUsed:
					seen["used "+e.Power.String()]++
					if e.Reshuffled {
						seen["reshuffle"]++
					}
				case Copied:
					seen["copied "+e.Power.String()]++
				case Recruited:
					if e.Reshuffled {
						seen["reshuffle"]++
					}
					if e.Empty {
						seen["empty recruit"]++
					}
				case Swapped:
					if !e.FaceUp {
						seen["swapped face-down"]++
					}
				case Discarded:
					if !e.FaceUp {
						seen["discarded face-down"]++
					}
				case RoundStarted:
					if len(e.Redrawn) > 0 {
						seen["redrawn"]++
					}
					if e.Reshuffled {
						seen["reshuffle"]++
					}
				case RoundEnded:
					if len(e.Kept) > 0 {
						seen["kept"]++
					}
				case RoundScored:
					for _, a := range e.Armies {
						if a.Claims == 2 {
							seen["claims two"]++
						}
						if a.Doubled {
							seen["doubled"]++
						}
					}
				}
			}
		}
		if s.Final.Ranking[0].Place == s.Final.Ranking[1].Place {
			seen["shared first place"]++
		}
	}
	want := []string{EvTurnStarted, EvRecruited, EvMustered, EvPowerDeclined, EvPowerUsed, EvCopied,
		EvSwapped, EvDiscarded, EvSupporterSwapped, EvRoundScored, EvClaimed, EvRoundEnded, EvRoundStarted, EvGameEnded,
		"used Forsyth", "used Makgill", "used Bruce", "used Cochrane", "used MacDonnell",
		"copied Forsyth", "copied Makgill", "copied Bruce", "copied Cochrane", "copied MacDonnell",
		"copied Fergusson", "copied Wemyss", "copied Cockburn", "reshuffle", "redrawn", "kept",
		"claims two", "doubled", "swapped face-down", "discarded face-down"}
	for _, k := range want {
		if seen[k] == 0 {
			t.Errorf("random play never reached %q", k)
		}
	}
	t.Logf("%v", seen)
}

// TestQuickFollowAgreesWithFollow checks Decide's shortcut against playing
// the events on a scratch copy, at every step of many random games.
func TestQuickFollowAgreesWithFollow(t *testing.T) {
	g := newGame(t)
	quick := 0
	for i := range 400 {
		st, err := g.New(randomSetup(i))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(uint64(i), 9))
		for s.Final == nil {
			seat := s.awaited()
			l := s.legal(seat)
			m := &l[r.IntN(len(l))]
			primary := s.primary(seat, m)
			if q, ok := s.quickFollow(append([]engine.Event(nil), primary...)); ok {
				quick++
				if slow := s.follow(append([]engine.Event(nil), primary...)); mustJSON(q) != mustJSON(slow) {
					t.Fatalf("game %d: quick %s\nslow %s", i, mustJSON(q), mustJSON(slow))
				}
			}
			evs, err := s.Decide(seat, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				s.Apply(e)
			}
		}
	}
	if quick == 0 {
		t.Fatal("the shortcut was never taken")
	}
}

// TestCoverageTable checks the coverage table of doc.go against
// testdata/*.txt: each scenario a row names is played and must set the
// row's tag by an assertion that passed.
func TestCoverageTable(t *testing.T) {
	g := newGame(t)
	enginetest.CheckCoverageTable(t, "testdata", ".txt", func(name string) map[string]bool {
		var tags map[string]bool
		t.Run(name, func(t *testing.T) { tags = runScenario(t, g, filepath.Join("testdata", name+".txt")) })
		return tags
	})
}
