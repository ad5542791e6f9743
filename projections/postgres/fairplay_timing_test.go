package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/lords"
	play1 "pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
)

// TestFairPlayDecisionTimes is the timing cheat of issue #28: Ann (seat 0)
// plays Lords of Scotland against a strong bot, in two games dealt from
// one seed that differ only in one card of the bot's hand (swapped with
// the bottom card of the draw pile: both hidden from Ann), so the bot
// thinks over other cards, for other times (40 to 450 ms a decision
// here without the pause). Ann reads, as a cheat would, each bot
// decision's recorded_at minus the previous event's (her own move,
// appended just before the bot was called), and a timeout's recorded_at
// minus the moment its deadline fired. With the decision pause, every
// such gap is the pause plus the append's latency: at least the pause,
// and the same in both games to within a fraction of it, whatever the bot
// held and however long it thought (the spread the test allows is half
// the pause; a decision that showed would add its own time, or a whole
// pause once it outlasted one). The two games run at once.
//
// The pause is longer here than the product's default (2 s): `make test`
// runs this package under the race detector, which slows the bot's
// search several times, and on a loaded 2-core machine a strong
// decision once outlasted 2 s (gaps of 4.30, 4.03, 2.43 and 2.01 s at
// load 21). That measured the machine, not the cards: a decision that
// fits in the pause is what the test is about.
func TestFairPlayDecisionTimes(t *testing.T) {
	const pause = 8 * time.Second
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	rigged := enginetest.Rigged{Game: lg, Rig: enginetest.Swap([]any{"hands", 1}, 0, []any{"draw"}, 0)}
	var gaps [2][]time.Duration
	t.Run("games", func(t *testing.T) {
		for k, g := range []engine.Game{lg, rigged} {
			t.Run([]string{"dealt", "rigged"}[k], func(t *testing.T) {
				t.Parallel()
				pool := pgtest.NewPool(t) // one each: both games get one id
				store := newStore(t, pool)
				svc := play1.New(play1.Config{Games: engine.NewRegistry(g), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
					Seeds: fixedSeeds{28, 2}, DecisionPause: pause})
				gaps[k] = botGaps(t, svc)
			})
		}
	})
	if t.Failed() {
		return
	}
	all := append(slices.Clone(gaps[0]), gaps[1]...)
	lo, hi := slices.Min(all), slices.Max(all)
	t.Logf("gaps before the bot's decisions and the timeout: %v in the game dealt as the seed says, %v in the rigged one", gaps[0], gaps[1])
	if lo < pause {
		t.Errorf("a system decision was appended %v after it began: before the pause of %v", lo, pause)
	}
	if hi-lo > pause/2 {
		t.Errorf("the gaps spread over %v (from %v to %v): Ann can tell the decisions apart by their times", hi-lo, lo, hi)
	}
}

// botGaps creates a game of Ann against a strong bot on svc, plays at
// least three of the bot's decisions (Ann playing random moves, the same in
// both games as long as both list them), then lets Ann's deadline pass
// (the timeout policy bot: a normal bot plays her seat), and returns the
// gaps Ann's history shows before each of the strong bot's decisions
// (from the previous event, appended just before the bot was called) and
// before the timeout (from the moment it was called, as Ann would count
// from the public deadline).
func botGaps(t *testing.T, svc *play1.Service) []time.Duration {
	ctx := context.Background()
	cg, err := svc.Create(ctx, play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		TimeoutPolicy: "bot", Players: []play1.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Bot: "strong"}}})
	if err != nil {
		t.Fatal(err)
	}
	tok := tokens.Seat(secret, cg.ID, 0, 0)
	rng := rand.New(rand.NewPCG(28, 2))
	for played := 0; ; {
		v, err := svc.View(ctx, cg.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != "active" {
			t.Fatal("the game ended before the bot played three times")
		}
		if slices.Contains(v.ToMove, 1) {
			if ok, err := svc.PlayBot(ctx, cg.ID, 1); err != nil || !ok {
				t.Fatalf("the bot did not play: %v", err)
			}
			played++
			continue
		}
		if played >= 3 {
			break
		}
		mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, cg.ID, tok, play1.MoveRequest{Version: v.Version, Move: play1.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if ok, err := svc.Timeout(ctx, cg.ID, start.Add(30*24*time.Hour)); err != nil || !ok {
		t.Fatalf("the timeout did not apply: %v", err)
	}
	h, err := svc.History(ctx, cg.ID, tok)
	if err != nil {
		t.Fatal(err)
	}
	var gaps []time.Duration
	timeouts := 0
	for i, r := range h.Events {
		if i == 0 || h.Events[i-1].RecordedAt.Equal(r.RecordedAt) {
			continue // the creation, or not the first event of its append
		}
		switch {
		case r.Actor == "bot:strong":
			gaps = append(gaps, r.RecordedAt.Sub(h.Events[i-1].RecordedAt))
		case r.Type == "pbem.timeout":
			gaps = append(gaps, r.RecordedAt.Sub(start))
			timeouts++
		}
	}
	if len(gaps) < 4 || timeouts != 1 {
		t.Fatalf("%d decisions of the bot and %d timeouts in Ann's history", len(gaps)-timeouts, timeouts)
	}
	return gaps
}
