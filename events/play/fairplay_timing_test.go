package play_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/lords"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
)

// TestFairPlayDecisionTimes is the timing cheat of issue #28: Ann (seat 0)
// plays Lords of Scotland against a strong bot, in two games dealt from
// one seed that differ only in one card of the bot's hand (swapped with
// the bottom card of the draw pile: both hidden from Ann), so the bot
// thinks over other cards, for other times. Ann reads, as a cheat would,
// each bot decision's recorded_at minus the previous event's (her own
// move, appended just before the bot was called), and a timeout's
// recorded_at minus the moment its deadline fired.
//
// Each game runs on a clock of its own (thinkClock): the service's clock,
// the store's recorded_at and the decision pause's wait (play.Config.Now,
// evpg.Store.SetClock, play.Config.Sleep) all read it, and it moves only
// when the pause is waited and while a bot decides, by the time the bot's
// decision took (measured on the machine, 40 to 450 ms a strong decision
// quiet, seconds under the race detector on a loaded machine: it depends
// on the cards the bot holds). Everything else takes no time on it, so
// the property is exact: every gap Ann reads is the pause, to the
// microsecond, in both games, whatever the bot held and however long it
// thought; a decision that showed would add its own time, or a whole
// pause once it outlasted one. The pause is a minute of that clock (no
// real time passes for it), which any decision fits in however loaded the
// machine, and the bots are checked to have thought for different times
// in the two games, so that the pause had something to hide.
func TestFairPlayDecisionTimes(t *testing.T) {
	const pause = time.Minute
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	rigged := enginetest.Rigged{Game: lg, Rig: enginetest.Swap([]any{"hands", 1}, 0, []any{"draw"}, 0)}
	var gaps [2][]time.Duration
	var thought [2][]time.Duration
	t.Run("games", func(t *testing.T) {
		for k, g := range []engine.Game{lg, rigged} {
			t.Run([]string{"dealt", "rigged"}[k], func(t *testing.T) {
				t.Parallel()
				pool := pgtest.NewPool(t) // one each: both games get one id
				clock := newThinkClock()
				store := evpg.New(pool)
				t.Cleanup(store.Close)
				store.SetClock(clock.Now)
				svc := play.New(play.Config{Games: engine.NewRegistry(thinking{Game: g, clock: clock}), Store: store, Repo: postgres.New(pool),
					Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
					Seeds: fixedSeeds{28, 2}, DecisionPause: pause, Now: clock.Now, Sleep: clock.Sleep})
				gaps[k] = botGaps(t, svc, clock)
				thought[k] = clock.thoughts()
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("gaps before the bot's decisions and the timeout: %v in the game dealt as the seed says, %v in the rigged one", gaps[0], gaps[1])
	t.Logf("the decisions took %v in the dealt game, %v in the rigged one", thought[0], thought[1])
	for k, gs := range gaps {
		for i, g := range gs {
			if g != pause {
				t.Errorf("%s game: system decision %d was appended %v after it began, not the pause of %v: Ann can time it",
					[]string{"dealt", "rigged"}[k], i+1, g, pause)
			}
		}
	}
	if slices.Equal(thought[0], thought[1]) {
		t.Errorf("the bots thought for the same times in both games (%v): the pause hid nothing", thought[0])
	}
}

// thinkClock is the clock of one game of TestFairPlayDecisionTimes: it
// stands still but for Sleep (the decision pause) and for the bots'
// decisions (thinking), which move it by the time they took.
type thinkClock struct {
	mu      sync.Mutex
	now     time.Time
	thought []time.Duration
}

func newThinkClock() *thinkClock {
	return &thinkClock{now: time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)}
}

// Now reads the clock.
func (c *thinkClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Sleep is play.Config.Sleep: d passes at once.
func (c *thinkClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return ctx.Err()
}

// think moves the clock by a decision's time d.
func (c *thinkClock) think(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.thought = append(c.thought, d)
}

// thoughts lists the decisions' times in order.
func (c *thinkClock) thoughts() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.thought)
}

// thinking is a game whose bots' decisions take, on clock, the time they
// take on the machine.
type thinking struct {
	engine.Game
	clock *thinkClock
}

// ChooseBot decides as the game does and moves the clock by the time it took.
func (g thinking) ChooseBot(level engine.BotLevel, view engine.SeatView, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
	start := time.Now()
	mv, err := g.Game.ChooseBot(level, view, history, key, version)
	g.clock.think(max(time.Microsecond, time.Since(start).Truncate(time.Microsecond)))
	return mv, err
}

// botGaps creates a game of Ann against a strong bot on svc, plays at
// least three of the bot's decisions (Ann playing random moves, the same in
// both games as long as both list them), then lets Ann's deadline pass
// (the timeout policy bot: a normal bot plays her seat), and returns the
// gaps Ann's history shows before each of the strong bot's decisions
// (from the previous event, appended just before the bot was called) and
// before the timeout (from the moment it was called, as Ann would count
// from the public deadline).
func botGaps(t *testing.T, svc *play.Service, clock *thinkClock) []time.Duration {
	ctx := context.Background()
	cg, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		TimeoutPolicy: "bot", Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Bot: "strong"}}})
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
		if _, err := svc.Move(ctx, cg.ID, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	start := clock.Now()
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
