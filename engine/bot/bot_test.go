package bot_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/bot"
	"pbem/engine/lords"
)

func games(tb testing.TB) []struct {
	g          engine.Game
	minP, maxP int
} {
	tb.Helper()
	lg, err := lords.New()
	if err != nil {
		tb.Fatal(err)
	}
	return []struct {
		g          engine.Game
		minP, maxP int
	}{{lg, 2, 5}, {bagpipes.Game{}, 2, 6}}
}

func seedOf(i int) engine.Seed {
	var s engine.Seed
	s[0], s[1], s[31] = byte(i), byte(i>>8), 0xb0
	return s
}

// Whole games between every level at every player count end, and every
// bot move is one of the listed legal moves (bot.Play checks it).
func TestPlayEveryLevelAndPlayerCount(t *testing.T) {
	for _, gm := range games(t) {
		for n := gm.minP; n <= gm.maxP; n++ {
			for mix := range 1 {
				levels := make([]bot.Level, n)
				for i := range levels {
					levels[i] = []bot.Level{bot.Easy, bot.Normal}[(i+mix)%2]
				}
				levels[n-1] = bot.Strong
				t.Run(fmt.Sprintf("%s/%d/%v", gm.g.Name(), n, levels), func(t *testing.T) {
					decisions := 0
					st, err := bot.Play(gm.g, engine.Setup{Players: n, Seed: seedOf(100*n + mix)}, levels, nil, func(bot.Decision) { decisions++ })
					if err != nil {
						t.Fatal(err)
					}
					if st.Result() == nil || decisions == 0 {
						t.Fatalf("game not finished after %d decisions", decisions)
					}
				})
			}
		}
	}
}

// Replaying a game (same seed, same levels) gives the same bot moves: the
// same final state, bit for bit.
func TestReplayGivesTheSameMoves(t *testing.T) {
	for _, gm := range games(t) {
		levels := []bot.Level{bot.Strong, bot.Normal, bot.Easy}
		su := engine.Setup{Players: 3, Seed: seedOf(7)}
		var finals [2][]byte
		for k := range finals {
			st, err := bot.Play(gm.g, su, levels, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if finals[k], err = json.Marshal(st); err != nil {
				t.Fatal(err)
			}
		}
		if string(finals[0]) != string(finals[1]) {
			t.Errorf("%s: two plays of the same game differ", gm.g.Name())
		}
	}
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bot.Level
		ok   bool
	}{{"easy", bot.Easy, true}, {" Normal ", bot.Normal, true}, {"STRONG", bot.Strong, true}, {"", 0, false}, {"hard", 0, false}} {
		got, err := bot.ParseLevel(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseLevel(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && got.String() != tc.want.String() {
			t.Errorf("String of %v", got)
		}
	}
}

func TestChooseRefusesWrongViewAndLevel(t *testing.T) {
	gs := games(t)
	lg, bg := gs[0].g, gs[1].g
	st, err := lg.New(engine.Setup{Players: 2, Seed: seedOf(1)})
	if err != nil {
		t.Fatal(err)
	}
	seat := st.ToMove()[0]
	view := st.View(seat)
	key := seedOf(1).BotKey()
	var re *engine.RuleError
	for name, call := range map[string]func() error{
		"lords view to bagpipes": func() error {
			_, err := bot.Choose(bg, bot.Normal, view, engine.Redacted(bg, nil, seat), key, 1)
			return err
		},
		"another seat's history": func() error {
			_, err := bot.Choose(lg, bot.Normal, view, engine.Redacted(lg, nil, 1-seat), key, 1)
			return err
		},
		"level 0": func() error { _, err := bot.Choose(lg, 0, view, engine.Redacted(lg, nil, seat), key, 1); return err },
		"level 9": func() error { _, err := bot.Choose(lg, 9, view, engine.Redacted(lg, nil, seat), key, 1); return err },
	} {
		if err := call(); !errors.As(err, &re) || re.Code != engine.CodeBadOptions {
			t.Errorf("%s: err = %v, want bad_options", name, err)
		}
	}
	for _, l := range []bot.Level{bot.Easy, bot.Normal, bot.Strong} {
		v := view.(lords.View)
		m, err := bot.Choose(lg, l, &v, engine.Redacted(lg, nil, seat), key, 1)
		if err != nil {
			t.Fatalf("%s with a *View: %v", l, err)
		}
		if !slices.Contains(v.LegalMoves, m) {
			t.Errorf("%s: %v is not one of the view's moves verbatim", l, m)
		}
	}
}

// decisionPoints plays a game between normal bots and keeps, for each
// decision of seat 0 with a choice, its view and redacted history.
func decisionPoints(tb testing.TB, g engine.Game, players int, seed engine.Seed, max int) (views []engine.SeatView, hists []engine.SeatHistory) {
	tb.Helper()
	levels := make([]bot.Level, players)
	for i := range levels {
		levels[i] = bot.Normal
	}
	st, err := g.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	var hist []engine.Event
	for st.Result() == nil && len(views) < max {
		seat := st.ToMove()[0]
		red := engine.Redacted(g, hist, seat)
		if seat == 0 && len(st.Legal(seat)) > 1 {
			views, hists = append(views, st.View(seat)), append(hists, red)
		}
		m, err := bot.Choose(g, bot.Normal, st.View(seat), red, seed.BotKey(), len(hist)+1)
		if err != nil {
			tb.Fatal(err)
		}
		evs, err := st.Decide(seat, m)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
		hist = append(hist, evs...)
	}
	return views, hists
}

// BenchmarkStrongDecision times the strong bot's decisions over the
// decision points of a few games; it reports the p50 and p99 of each
// decision's CPU time on its thread (one core, whatever else runs).
func BenchmarkStrongDecision(b *testing.B) {
	for _, gm := range games(b) {
		for _, n := range []int{2, 4} {
			b.Run(fmt.Sprintf("%s/%dp", gm.g.Name(), n), func(b *testing.B) {
				var views []engine.SeatView
				var hists []engine.SeatHistory
				for i := range 3 {
					v, h := decisionPoints(b, gm.g, n, seedOf(50+i), 40)
					views, hists = append(views, v...), append(hists, h...)
				}
				var times []time.Duration
				clock := threadCPU()
				i := 0
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					k := i % len(views)
					start := clock()
					if _, err := bot.Choose(gm.g, bot.Strong, views[k], hists[k], seedOf(1).BotKey(), 1000+i); err != nil {
						b.Fatal(err)
					}
					times = append(times, clock()-start)
					i++
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Microseconds())/1000, "p99-ms")
			})
		}
	}
}
