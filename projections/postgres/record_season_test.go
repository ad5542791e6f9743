package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// season is a service keeping records, on a fresh database, whose clock
// (the service's and the event store's) is at.
type season struct {
	svc   *play1.Service
	repo  *postgres.Repo
	store *evpg.Store
	at    time.Time
	// moveSecs holds, by name, the time to move of each move the season
	// made for a person, as the driver saw it (the clock at the move less
	// the time its turn began).
	moveSecs map[string][]float64
}

// newSeason returns a season of the test game, or of games.
func newSeason(t *testing.T, games ...engine.Game) *season {
	t.Helper()
	pool := pgtest.NewPool(t)
	s := &season{repo: postgres.New(pool), at: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), moveSecs: map[string][]float64{}}
	s.store = evpg.New(pool)
	t.Cleanup(s.store.Close)
	s.store.SetClock(func() time.Time { return s.at })
	if len(games) == 0 {
		games = []engine.Game{testgame.Game{}}
	}
	s.svc = play1.New(play1.Config{Games: engine.NewRegistry(games...), Store: s.store, Repo: s.repo,
		Accounts: playpg.New(pool), Visits: playpg.New(pool), Records: s.repo, Secret: secret,
		Now: func() time.Time { return s.at }, Seeds: rand.NewChaCha8([32]byte{46})})
	return s
}

// seatToken is the current play link's token of seat (the generation
// the service reports through OldLinkOf, as playtest.SeatView walks it).
func (s *season) seatToken(t *testing.T, id string, seat int) string {
	t.Helper()
	ctx := context.Background()
	for gen := 0; gen < 20; gen++ {
		tok := tokens.Seat(secret, id, seat, gen)
		if _, err := s.svc.View(ctx, id, tok); err == nil {
			return tok
		}
		if old, err := s.svc.OldLinkOf(ctx, id, tok); err != nil || old == nil {
			break
		}
	}
	t.Fatalf("no link opens seat %d of %s", seat, id)
	return ""
}

// personName and personEmail are the eight people of the season.
func personName(i int) string  { return fmt.Sprintf("P%d", i) }
func personEmail(i int) string { return fmt.Sprintf("p%d@example.org", i) }

// playSeason plays games numbered 0..n-1 among eight people and bots,
// each from its own fixed seed: people move or let the deadline pass (P6
// and P7 often), some are replaced, some seats are handed to a bot and
// back, some handed for good, and every seventh game is aborted. It
// returns the games' ids.
func (s *season) playSeason(t *testing.T, n int) []string {
	t.Helper()
	ctx := context.Background()
	var ids []string
	for i := range n {
		rng := rand.New(rand.NewPCG(46, uint64(i)))
		seats := 2 + i%3
		people := rng.Perm(8)
		req := play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name,
			Options: json.RawMessage(`{"target":18,"rounds":3}`)}
		for k := range seats {
			p := play1.NewPlayer{Name: personName(people[k]), Email: personEmail(people[k])}
			if (i%4 == 3 && k == seats-1) || (i%5 == 0 && k == 0 && seats > 2) {
				p = play1.NewPlayer{Name: fmt.Sprintf("Robot %d", k+1), Bot: []string{"easy", "normal"}[i%2]}
			}
			req.Players = append(req.Players, p)
		}
		c, err := s.svc.Create(ctx, req)
		if err != nil {
			t.Fatalf("game %d: create: %v", i, err)
		}
		ids = append(ids, c.ID)
		s.playGame(t, i, c, rng, people[seats:])
	}
	return ids
}

// playGame plays game number i to its end (or its abort).
func (s *season) playGame(t *testing.T, i int, c *play1.CreatedGame, rng *rand.Rand, bench []int) {
	t.Helper()
	ctx := context.Background()
	handed := -1
	// since is when the awaited seat's turn began: the event that made
	// it awaited, or gave it to a person while awaited.
	var since time.Time
	var awaited []int
	for step := 0; step < 400; step++ {
		sm, err := s.svc.Summary(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Ended() {
			return
		}
		if !slices.Equal(sm.ToMove, awaited) {
			since, awaited = sm.UpdatedAt, sm.ToMove
		}
		seat := sm.ToMove[0]
		s.at = s.at.Add(time.Duration(1+rng.IntN(90)) * time.Minute)
		switch {
		case i%7 == 6 && step == 5:
			if _, err := s.svc.Abort(ctx, c.ID, c.AdminToken); err != nil {
				t.Fatalf("game %d: abort: %v", i, err)
			}
			continue
		case i%6 == 1 && step == 3 && len(bench) > 0 && sm.Seats[seat].Bot == "":
			// The awaited person is replaced by one from the bench.
			p := bench[0]
			if _, err := s.svc.ReplacePlayer(ctx, c.ID, c.AdminToken, seat, personName(p), personEmail(p)); err != nil {
				t.Fatalf("game %d: replace: %v", i, err)
			}
			since = s.at
			continue
		case (i%6 == 2 || i%6 == 4) && step == 2 && sm.Seats[seat].Bot == "":
			// The awaited person's seat goes to a bot: back later in
			// games 2 mod 6, for good in games 4 mod 6.
			if _, err := s.svc.SeatBot(ctx, c.ID, c.AdminToken, seat, "normal"); err != nil {
				t.Fatalf("game %d: hand to a bot: %v", i, err)
			}
			handed = seat
			continue
		case i%6 == 2 && step == 8 && handed >= 0:
			if _, err := s.svc.SeatBot(ctx, c.ID, c.AdminToken, handed, ""); err != nil {
				t.Fatalf("game %d: hand back: %v", i, err)
			}
			if handed == seat {
				since = s.at
			}
			handed = -1
			continue
		}
		if sm.Seats[seat].Bot != "" {
			if ok, err := s.svc.PlayBot(ctx, c.ID, seat); err != nil || !ok {
				t.Fatalf("game %d: bot of seat %d: %v %v", i, seat, ok, err)
			}
			continue
		}
		name := sm.Seats[seat].Name
		late := 0.05
		if name == "P6" || name == "P7" {
			late = 0.4
		}
		if rng.Float64() < late {
			s.at = sm.Deadline.Add(time.Minute)
			if ok, err := s.svc.Timeout(ctx, c.ID, s.at); err != nil || !ok {
				t.Fatalf("game %d: timeout: %v %v", i, ok, err)
			}
			continue
		}
		tok := s.seatToken(t, c.ID, seat)
		v, err := s.svc.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		s.moveSecs[name] = append(s.moveSecs[name], s.at.Sub(since).Seconds())
		if _, err := s.svc.Move(ctx, c.ID, tok, play1.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
			t.Fatalf("game %d: move: %v", i, err)
		}
	}
	t.Fatalf("game %d did not end in 400 steps", i)
}

// counted is a person's record counted from the events by the season
// test itself, seat holder by seat holder, the simple way: a turn owed
// is a move of the person's own (the test game has one decision a turn)
// or a timeout naming their seat while they play it.
type counted struct {
	games                                     map[string]bool
	finished, won, abandoned, handed, aborted int
	owed, timedOut                            int
}

// countFromEvents counts every person's record from the games' events
// (and their results), by name.
func (s *season) countFromEvents(t *testing.T, ids []string) map[string]*counted {
	t.Helper()
	ctx := context.Background()
	out := map[string]*counted{}
	of := func(name string) *counted {
		if out[name] == nil {
			out[name] = &counted{games: map[string]bool{}}
		}
		return out[name]
	}
	for _, id := range ids {
		evs, err := s.store.ReadStream(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := pbemevent.Opening(evs)
		if err != nil {
			t.Fatal(err)
		}
		holder := slices.Clone(c.Players)
		bot := make([]bool, len(holder))
		handed := make([]bool, len(holder))
		for k := range holder {
			bot[k] = k < len(c.Bots) && c.Bots[k] != ""
			if !bot[k] {
				of(holder[k]).games[id] = true
			}
		}
		for _, e := range evs {
			switch e.Type {
			case pbemevent.TypePlayerReplaced:
				var x pbemevent.PlayerReplaced
				mustJSON(t, e.Data, &x)
				if !bot[x.Seat] {
					of(holder[x.Seat]).abandoned++
				}
				holder[x.Seat], bot[x.Seat], handed[x.Seat] = x.Name, false, false
				of(x.Name).games[id] = true
			case pbemevent.TypeSeatBot:
				var x pbemevent.SeatBot
				mustJSON(t, e.Data, &x)
				handed[x.Seat] = x.Bot != ""
			case pbemevent.TypeTimeout:
				var x pbemevent.Timeout
				mustJSON(t, e.Data, &x)
				for _, k := range x.Seats {
					if !bot[k] && !handed[k] {
						of(holder[k]).timedOut++
						of(holder[k]).owed++
					}
				}
			case "played", "drew":
				if k, ok := pbemevent.SeatOfActor(e.Meta.Actor); ok && !bot[k] && !handed[k] {
					of(holder[k]).owed++
				}
			}
		}
		sm, err := s.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for k := range holder {
			if bot[k] {
				continue
			}
			switch {
			case sm.Status == projections.StatusAborted:
				of(holder[k]).aborted++
			case handed[k]:
				of(holder[k]).handed++
			default:
				of(holder[k]).finished++
				for _, r := range sm.Result.Ranking {
					if r.Seat == k && r.Place == 1 {
						of(holder[k]).won++
					}
				}
			}
		}
	}
	return out
}

func mustJSON(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// median is the median of xs (the mean of the middle two for an even
// count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// TestRecordSeason plays a season of 36 games among eight people and
// bots through the service (timeouts, replacements, hand-offs to bots
// and back, aborts) and checks every person's record against the counts
// the test makes from the events itself, and its quickness against the
// times the test moved at; every person and bot who finished a game is
// rated, bots marked; the records, rebuilt from the events, equal those
// kept as the games ended, and verify finds them equal.
func TestRecordSeason(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSeason(t)
	ids := s.playSeason(t, 36)
	if _, err := s.svc.RefreshRecords(ctx); err != nil {
		t.Fatal(err)
	}
	want := s.countFromEvents(t, ids)
	finishedGames, timeouts, replaced, handedGames := 0, 0, 0, 0
	for _, id := range ids {
		sm, err := s.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Status == projections.StatusFinished {
			finishedGames++
		}
	}
	records := map[string]*projections.PersonRecord{}
	for p := range 8 {
		name := personName(p)
		r, err := s.svc.RecordOf(ctx, strings.ToUpper(personEmail(p)))
		if err != nil {
			t.Fatal(err)
		}
		records[name] = r
		w := want[name]
		if w == nil {
			t.Fatalf("%s played no game of the season", name)
		}
		got := [...]int{r.GamesPlayed, r.GamesFinished, r.GamesWon, r.GamesAbandoned, r.GamesHanded, r.GamesAborted, r.GamesActive, r.TurnsOwed, r.TurnsTimedOut}
		exp := [...]int{len(w.games), w.finished, w.won, w.abandoned, w.handed, w.aborted, 0, w.owed, w.timedOut}
		if got != exp {
			t.Errorf("%s: record played/finished/won/abandoned/handed/aborted/active/owed/timed out %v, counted from the events %v", name, got, exp)
		}
		if r.Reliability == nil || math.Abs(*r.Reliability-float64(w.owed-w.timedOut)/float64(w.owed)) > 1e-12 {
			t.Errorf("%s: reliability %v, want %d of %d", name, r.Reliability, w.owed-w.timedOut, w.owed)
		}
		if word := projections.ReliabilityWord(w.owed, w.timedOut); r.ReliabilityWord != word {
			t.Errorf("%s: reliability in words %q, want %q", name, r.ReliabilityWord, word)
		}
		if m := median(s.moveSecs[name]); r.MedianMoveSeconds == nil || math.Abs(*r.MedianMoveSeconds-m) > 1e-9 {
			t.Errorf("%s: median time to move %v s, the season moved at a median of %v s", name, r.MedianMoveSeconds, m)
		}
		if len(r.Ratings) != 1 || r.Ratings[0].Games != w.finished || r.Ratings[0].Bot != "" {
			t.Errorf("%s: ratings %+v, want one of %d games", name, r.Ratings, w.finished)
		}
		timeouts += w.timedOut
		replaced += w.abandoned
		handedGames += w.handed
	}
	t.Logf("season: %d games, %d finished, %d timeouts, %d people replaced, %d games ended by a bot for its person", len(ids), finishedGames, timeouts, replaced, handedGames)
	if finishedGames < 30 || timeouts == 0 || replaced == 0 || handedGames == 0 {
		t.Fatalf("the season lacks what it must hold: %d finished games, %d timeouts, %d replaced, %d handed", finishedGames, timeouts, replaced, handedGames)
	}
	if records["P6"].ReliabilityWord != projections.ReliabilityOftenLate || records["P0"].ReliabilityWord != projections.ReliabilityReliable {
		t.Errorf("P6 is %q and P0 %q: the season makes P6 late and P0 punctual", records["P6"].ReliabilityWord, records["P0"].ReliabilityWord)
	}
	board, err := s.svc.Leaderboard(ctx, testgame.Name)
	if err != nil {
		t.Fatal(err)
	}
	var bots []string
	for _, r := range board {
		if r.Bot == "" {
			t.Errorf("the leaderboard lists %s, who did not choose to be listed", r.Name)
		}
		bots = append(bots, r.Bot)
	}
	slices.Sort(bots)
	if !slices.Equal(bots, []string{"easy", "normal"}) {
		t.Errorf("the leaderboard's bots are %v, want easy and normal", bots)
	}

	// Rebuilt from the events alone, the records are the same, and
	// verify finds them equal; a stored stint changed by hand is found.
	_, ratingsBefore, changesBefore, err := s.repo.RatedStints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.svc.RebuildRecords(ctx); err != nil || n != len(ids) {
		t.Fatalf("rebuild records: %d games, %v", n, err)
	}
	if n, pending, err := s.svc.VerifyRecords(ctx); err != nil || n != len(ids) || pending != 0 {
		t.Fatalf("verify records: %d games, %d pending, %v", n, pending, err)
	}
	_, ratingsAfter, changesAfter, err := s.repo.RatedStints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ratingsBefore) != fmt.Sprint(ratingsAfter) || fmt.Sprint(changesBefore) != fmt.Sprint(changesAfter) {
		t.Fatalf("ratings rebuilt from the events differ from those kept as the games ended")
	}
	for p := range 8 {
		r, err := s.svc.RecordOf(ctx, personEmail(p))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(records[personName(p)])
		b, _ := json.Marshal(r)
		if string(a) != string(b) {
			t.Errorf("%s: record after the rebuild\n%s\nbefore\n%s", personName(p), b, a)
		}
	}
	stints, v, err := s.repo.GameStints(ctx, ids[0])
	if err != nil || len(stints) == 0 {
		t.Fatal(err)
	}
	stints[0].TimedOut++
	if err := s.repo.SaveStints(ctx, []projections.FoldedGame{{ID: ids[0], Version: v, Stints: stints}}, projections.RateFrom); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.svc.VerifyRecords(ctx); play1.ErrorCode(err) != events.CodeCorrupt || !strings.Contains(err.Error(), ids[0]) {
		t.Fatalf("verify after a stint was changed by hand: %v", err)
	}
}
