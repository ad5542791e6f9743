package bots_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/bot"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/bots"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	ppg "pbem/projections/postgres"
)

var botSecret = []byte("bot test secret")

// botEnv is a game service with the real engines on a fresh database.
type botEnv struct {
	pool  *pgxpool.Pool
	store events.Store
	svc   *play.Service
	games engine.Registry
}

func newBotEnv(t *testing.T, now func() time.Time) *botEnv {
	t.Helper()
	pool := pgtest.NewPool(t)
	l, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	games := engine.NewRegistry(l, bagpipes.Game{})
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: botSecret, Now: now})
	return &botEnv{pool: pool, store: store, svc: svc, games: games}
}

// runWorker runs a bot worker (no think delay) until the test ends.
func (e *botEnv) runWorker(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	wake, err := e.store.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := bots.NewWorker(e.pool, bots.Config{Player: e.svc, Wake: wake, Poll: 20 * time.Millisecond})
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// create makes a game of Ann (seat 0, a person) and bots of levels.
func (e *botEnv) create(t *testing.T, name string, policy string, levels ...string) string {
	t.Helper()
	req := play.CreateGame{Game: name, TimeoutPolicy: policy, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}}}
	for _, l := range levels {
		req.Players = append(req.Players, play.NewPlayer{Bot: l})
	}
	c, err := e.svc.Create(context.Background(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return c.ID
}

// playPerson plays Ann's random moves until the game ends (the worker
// plays the bots), failing after limit.
func (e *botEnv) playPerson(t *testing.T, id string, rng *rand.Rand, limit time.Duration) *play.Summary {
	t.Helper()
	return e.playPeople(t, id, map[int]string{0: tokens.Seat(botSecret, id, 0, 0)}, rng, limit, nil)
}

// playPeople plays random moves for the seats of tokens until the game
// ends or stop (if set) says so, failing after limit.
func (e *botEnv) playPeople(t *testing.T, id string, tokens map[int]string, rng *rand.Rand, limit time.Duration, stop func() bool) *play.Summary {
	t.Helper()
	ctx := context.Background()
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		sm, err := e.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Status != projections.StatusActive || (stop != nil && stop()) {
			return sm
		}
		played := false
		for _, seat := range sm.ToMove {
			tok, ok := tokens[seat]
			if !ok {
				continue
			}
			v, err := e.svc.View(ctx, id, tok)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.LegalMoves) == 0 {
				continue
			}
			mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil && play.ErrorCode(err) != events.CodeConflict {
				t.Fatalf("seat %d's move: %v", seat, err)
			}
			played = true
			break
		}
		if !played {
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Fatalf("game %s did not end within %s", id, limit)
	return nil
}

// checkBotGame checks a game's stream: Verify passes, every move of a bot
// seat names the bot and its level, replaying the bots' decisions from
// their views and redacted histories gives the same moves, and no email
// went to a bot's seat.
func (e *botEnv) checkBotGame(t *testing.T, id string, levels []string) {
	t.Helper()
	ctx := context.Background()
	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify: %v", err)
	}
	evs, err := e.store.ReadStream(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	var c pbemevent.Created
	if err := json.Unmarshal(evs[0].Data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Bots) != len(levels)+1 || c.Bots[0] != "" {
		t.Fatalf("pbem.created bots = %q", c.Bots)
	}
	eng := e.games[c.Game]
	seed, err := pbemevent.DecodeSeed(c.Seed)
	if err != nil {
		t.Fatal(err)
	}
	st, err := eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language})
	if err != nil {
		t.Fatal(err)
	}
	var hist []engine.Event
	bots := 0
	inForced := 0 // events left of the forced step being checked
	for i := 1; i < len(evs); i++ {
		ev := evs[i]
		if pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		if strings.HasPrefix(ev.Meta.Actor, "bot:") && ev.Meta.IdempotencyKey != "" {
			bots++
			// seat:N:bot:vV
			parts := strings.Split(ev.Meta.IdempotencyKey, ":")
			seat, _ := strconv.Atoi(parts[1])
			if len(parts) != 4 || seat < 1 || ev.Meta.Actor != "bot:"+c.Bots[seat] || parts[3] != "v"+strconv.FormatInt(ev.Version-1, 10) {
				t.Fatalf("v%d: actor %q key %q, bots %q", ev.Version, ev.Meta.Actor, ev.Meta.IdempotencyKey, c.Bots)
			}
			level, _ := bot.ParseLevel(c.Bots[seat])
			mv, err := bot.Choose(eng, level, st.View(seat), engine.Redacted(eng, hist, seat), seed.BotKey(), int(ev.Version-1))
			if err != nil {
				t.Fatal(err)
			}
			out, err := st.Clone().Decide(seat, mv)
			if err != nil {
				t.Fatal(err)
			}
			for j, o := range out {
				b, _ := json.Marshal(o)
				if !sameJSON(b, evs[i+j].Data) {
					t.Fatalf("v%d: replayed bot decision gives %s, stored %s", ev.Version+int64(j), b, evs[i+j].Data)
				}
			}
		} else if fseat, ok := pbemevent.SeatOfForced(ev.Meta.Actor); ok && inForced == 0 {
			// A forced step: the seat's forced move (its only one, which
			// the table could tell) decides exactly the stored events.
			f := st.Forced(fseat)
			if f == nil {
				t.Fatalf("v%d: a forced step for seat %d, which has no forced move", ev.Version, fseat)
			}
			out, err := st.Clone().Decide(fseat, f)
			if err != nil {
				t.Fatal(err)
			}
			for j, o := range out {
				b, _ := json.Marshal(o)
				if i+j >= len(evs) || evs[i+j].Meta.Actor != ev.Meta.Actor || !sameJSON(b, evs[i+j].Data) {
					t.Fatalf("v%d: the forced move of seat %d gives %s, not what is stored", ev.Version+int64(j), fseat, b)
				}
			}
			inForced = len(out)
		} else if !ok && !strings.HasPrefix(ev.Meta.Actor, "seat:") && !strings.HasPrefix(ev.Meta.Actor, "bot:") {
			t.Fatalf("v%d: engine event by %q", ev.Version, ev.Meta.Actor)
		}
		inForced = max(0, inForced-1)
		d, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(d)
		hist = append(hist, d)
	}
	if bots == 0 {
		t.Fatal("no bot move")
	}
	var toBots, toAnn int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE seat > 0), count(*) FILTER (WHERE seat = 0) FROM outbox WHERE game_id = $1`, id).Scan(&toBots, &toAnn); err != nil {
		t.Fatal(err)
	}
	if toBots != 0 || toAnn == 0 {
		t.Fatalf("emails: %d to bots, %d to Ann", toBots, toAnn)
	}
}

func TestBotWorkerPlaysWholeGames(t *testing.T) {
	t.Parallel()
	e := newBotEnv(t, nil)
	e.runWorker(t)
	// A second server (its own service, store and game cache) runs its
	// worker on the same database: each decision is still played once
	// (checkBotGame replays every bot event).
	store2 := evpg.New(e.pool)
	t.Cleanup(store2.Close)
	other := &botEnv{pool: e.pool, games: e.games, store: store2}
	other.svc = play.New(play.Config{Games: e.games, Store: other.store, Repo: ppg.New(e.pool), Accounts: playpg.New(e.pool), Visits: playpg.New(e.pool), Seeds: playtest.Seeds(t.Name() + "/other service"), Secret: botSecret})
	other.runWorker(t)
	for i, tc := range []struct {
		game   string
		levels []string
	}{
		// One person and bots at every player count of both games.
		{lords.Name, []string{"easy"}},
		{lords.Name, []string{"normal", "easy"}},
		{lords.Name, []string{"easy", "normal", "easy"}},
		{lords.Name, []string{"normal", "easy", "normal", "easy"}},
		{bagpipes.Name, []string{"normal"}},
		{bagpipes.Name, []string{"easy", "normal"}},
		{bagpipes.Name, []string{"normal", "easy", "normal"}},
		{bagpipes.Name, []string{"easy", "easy", "normal", "normal"}},
		{bagpipes.Name, []string{"easy", "normal", "easy", "easy", "normal"}},
	} {
		id := e.create(t, tc.game, "", tc.levels...)
		sm := e.playPerson(t, id, rand.New(rand.NewPCG(uint64(i), 7)), playLimit)
		if sm.Status != projections.StatusFinished || len(sm.Result.Ranking) != len(tc.levels)+1 {
			t.Fatalf("%s: summary %+v", tc.game, sm)
		}
		if sm.Seats[0].Bot != "" || sm.Seats[1].Bot != tc.levels[0] || sm.Seats[1].Name != "Robot 1" {
			t.Fatalf("summary seats = %+v", sm.Seats)
		}
		e.checkBotGame(t, id, tc.levels)
	}
}

func TestBotStrongPlaysAMove(t *testing.T) {
	t.Parallel()
	e := newBotEnv(t, nil)
	ctx := context.Background()
	id := e.create(t, lords.Name, "", "strong")
	rng := rand.New(rand.NewPCG(3, 4))
	tok := tokens.Seat(botSecret, id, 0, 0)
	for range 50 {
		g, err := e.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(g.ToMove, 1) {
			break
		}
		v, err := e.svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if _, err := e.svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	played, err := e.svc.PlayBot(ctx, id, 1)
	if err != nil || !played {
		t.Fatalf("PlayBot = %v, %v", played, err)
	}
	evs, err := e.store.ReadStream(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(evs, func(e events.Event) bool { return e.Meta.Actor == "bot:strong" }) {
		t.Fatal("no event by bot:strong")
	}
	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatal(err)
	}
	// Ann cannot play the bot's seat with its link.
	if _, err := e.svc.Move(ctx, id, tokens.Seat(botSecret, id, 1, 0), play.MoveRequest{Version: int64(len(evs)), Move: play.PostedMove(json.RawMessage(`{}`))}); play.ErrorCode(err) != events.CodeConflict {
		t.Fatalf("move of a bot's seat: %v", err)
	}
}

// sameJSON reports whether a and b are the same JSON value (the store
// keeps jsonb, whose key order is its own).
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func TestBotPlayBotPlaysEachDecisionOnce(t *testing.T) {
	t.Parallel()
	e := newBotEnv(t, nil)
	ctx := context.Background()
	id := e.create(t, bagpipes.Name, "", "normal")
	tok := tokens.Seat(botSecret, id, 0, 0)
	rng := rand.New(rand.NewPCG(1, 1))
	e.playPeople(t, id, map[int]string{0: tok}, rng, playLimit, func() bool {
		sm, err := e.svc.Summary(ctx, id)
		return err == nil && slices.Contains(sm.ToMove, 1)
	})
	before, err := e.svc.Summary(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if played, err := e.svc.PlayBot(ctx, id, 1); err != nil || !played {
		t.Fatalf("PlayBot = %v, %v", played, err)
	}
	after, err := e.svc.Summary(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version <= before.Version {
		t.Fatalf("version %d after the bot's move at %d", after.Version, before.Version)
	}
	if !slices.Contains(after.ToMove, 1) {
		if played, err := e.svc.PlayBot(ctx, id, 1); err != nil || played {
			t.Fatalf("PlayBot of a seat not awaited = %v, %v", played, err)
		}
	}
	if played, err := e.svc.PlayBot(ctx, id, 0); err != nil || played {
		t.Fatalf("PlayBot of a person's seat = %v, %v", played, err)
	}
	if _, err := e.svc.PlayBot(ctx, id, 7); play.ErrorCode(err) != events.CodeNotFound {
		t.Fatalf("PlayBot of no seat: %v", err)
	}
}

// playLimit is how long a test waits for a game (or the step it watches)
// before calling it hung. It bounds a wait for a condition, and is not a
// time anything takes: on 2 cores under make test at load 30 (-race),
// bots have taken more than a minute to finish one game.
const playLimit = 5 * time.Minute
