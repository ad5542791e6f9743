package postgres_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"pbem/events/play/playtest"
	"pbem/projections"
)

// TestRerateWritesOnlyWhatChanged: computing the ratings again leaves the
// rows that come out the same untouched (their xmin stays), rewrites the
// ones that differ, adds the new ones and removes those no longer
// computed; the tables then hold exactly what the rating gave.
func TestRerateWritesOnlyWhatChanged(t *testing.T) {
	clock := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	_, repo, _, pool := newServiceClock(t, &clock)
	ctx := context.Background()
	g := func(r float64) projections.Glicko { return projections.Glicko{R: r, RD: 200.5, Vol: 0.06} }
	ratings := []projections.Rating{
		{Game: "lords", Player: "ann@example.org", Name: "Ann", Rating: 1512.25, RD: 290.1, Volatility: 0.06, Games: 1},
		{Game: "lords", Player: "bob@example.org", Name: "Bob", Rating: 1487.75, RD: 290.1, Volatility: 0.06, Games: 1},
		{Game: "lords", Player: "bot:normal", Name: "normal", Bot: "normal", Rating: 1500, RD: 300, Volatility: 0.06, Games: 1},
	}
	changes := []projections.RatingChange{
		{GameID: "g1", Seat: 0, Player: "ann@example.org", Name: "Ann", Before: g(1500), After: g(1512.25)},
		{GameID: "g1", Seat: 1, Player: "bob@example.org", Name: "Bob", Before: g(1500), After: g(1487.75)},
		{GameID: "g1", Seat: 2, Player: "bot:normal", Name: "normal", Bot: "normal", Before: g(1500), After: g(1500)},
	}
	rerate := func(rs []projections.Rating, cs []projections.RatingChange) {
		t.Helper()
		if err := repo.Rerate(ctx, func([]projections.Rating, []projections.Stint) ([]projections.Rating, []projections.RatingChange) {
			return rs, cs
		}); err != nil {
			t.Fatal(err)
		}
	}
	// xmins maps each row's key to the transaction that wrote it.
	xmins := func(query string) map[string]string {
		t.Helper()
		rows, err := pool.Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var k, x string
			if err := rows.Scan(&k, &x); err != nil {
				t.Fatal(err)
			}
			out[k] = x
		}
		return out
	}
	const ratingRows = `SELECT game || '/' || player, xmin::text FROM ratings`
	const changeRows = `SELECT game_id || '/' || seat, xmin::text FROM rating_changes`
	rerate(ratings, changes)
	r1, c1 := xmins(ratingRows), xmins(changeRows)
	if len(r1) != 3 || len(c1) != 3 {
		t.Fatalf("after the first rating: %d ratings and %d changes, want 3 and 3", len(r1), len(c1))
	}

	// A second game ends: Ann and Bob's ratings move, the bot's is dropped
	// (say its seat was rated no more), g1's changes stay as they were
	// but for Bob's, and g2 brings two.
	ratings2 := slices.Clone(ratings[:2])
	ratings2[0].Rating, ratings2[0].Games = 1520.5, 2
	ratings2[1].Rating, ratings2[1].Games = 1479.5, 2
	changes2 := slices.Clone(changes)
	changes2[1].After = g(1487.5)
	changes2 = append(changes2,
		projections.RatingChange{GameID: "g2", Seat: 0, Player: "ann@example.org", Name: "Ann", Before: g(1512.25), After: g(1520.5)},
		projections.RatingChange{GameID: "g2", Seat: 1, Player: "bob@example.org", Name: "Bob", Before: g(1487.5), After: g(1479.5)})
	rerate(ratings2, changes2)
	r2, c2 := xmins(ratingRows), xmins(changeRows)
	if _, ok := r2["lords/bot:normal"]; ok || len(r2) != 2 {
		t.Errorf("ratings after the second game: %v, want Ann's and Bob's only", r2)
	}
	for _, k := range []string{"g1/0", "g1/2"} {
		if c2[k] != c1[k] {
			t.Errorf("change %s was written again (xmin %s, then %s): it did not change", k, c1[k], c2[k])
		}
	}
	if c2["g1/1"] == c1["g1/1"] {
		t.Errorf("change g1/1 differs but was not written")
	}
	if len(c2) != 5 {
		t.Errorf("%d changes after the second game, want 5: %v", len(c2), c2)
	}

	// What the tables hold is what the rating gave.
	var gotR []projections.Rating
	rows, err := pool.Query(ctx, `SELECT game, player, name, bot, rating, rd, volatility, games FROM ratings ORDER BY player`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var x projections.Rating
		if err := rows.Scan(&x.Game, &x.Player, &x.Name, &x.Bot, &x.Rating, &x.RD, &x.Volatility, &x.Games); err != nil {
			t.Fatal(err)
		}
		gotR = append(gotR, x)
	}
	if !slices.Equal(gotR, ratings2) {
		t.Errorf("ratings hold %+v, want %+v", gotR, ratings2)
	}
	var after float64
	if err := pool.QueryRow(ctx, `SELECT rating_after FROM rating_changes WHERE game_id = 'g1' AND seat = 1`).Scan(&after); err != nil || after != 1487.5 {
		t.Errorf("Bob's g1 change reads %v (%v), want 1487.5", after, err)
	}

	// The same rating again writes nothing.
	rerate(ratings2, changes2)
	if r3, c3 := xmins(ratingRows), xmins(changeRows); !maps.Equal(r3, r2) || !maps.Equal(c3, c2) {
		t.Errorf("an unchanged rating wrote rows again: ratings %v -> %v, changes %v -> %v", r2, r3, c2, c3)
	}
}

// TestSaveStintsRatesInTheSameTransaction: the stints of an ended game and
// the ratings computed from them are written by one transaction, so that
// no crash between the two leaves ratings that the stored stints do not
// give (they stayed so until another game ended, and `pbem verify --all`
// said "the ratings differ" after systest TestCrashes, once in 50 runs):
// a rating that fails once the stints are written (here, it panics)
// leaves neither, on one server as on Citus (whose workers each number
// their own transactions, so that comparing xmin across tables proves
// nothing there). RatedStints reads both in one snapshot, with the stints
// in the order the rating took them.
func TestSaveStintsRatesInTheSameTransaction(t *testing.T) {
	clock := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	_, repo, _, pool := newServiceClock(t, &clock)
	ctx := context.Background()
	ended := clock.Add(-time.Hour)
	stint := func(seat, place int, name string) projections.Stint {
		return projections.Stint{GameID: "g1", Seat: seat, Game: "lords-of-scotland", Name: name,
			Email: name + "@example.org", Outcome: "finished", Place: place, MoveMillis: []int64{}, EndedAt: &ended}
	}
	game := projections.FoldedGame{ID: "g1", Version: 42, Stints: []projections.Stint{stint(0, 1, "ann"), stint(1, 2, "bob")}}
	count := func() (stints, ratings int) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM seat_records), (SELECT count(*) FROM ratings)`).Scan(&stints, &ratings); err != nil {
			t.Fatal(err)
		}
		return stints, ratings
	}
	failing := func(prior []projections.Rating, st []projections.Stint) ([]projections.Rating, []projections.RatingChange) {
		panic("the rating failed")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the failing rating did not fail")
			}
		}()
		_ = repo.SaveStints(ctx, []projections.FoldedGame{game}, failing)
	}()
	if s, r := count(); s != 0 || r != 0 {
		t.Fatalf("a rating that failed left %d stints and %d ratings: the stints were written apart from it", s, r)
	}

	var rated []projections.Stint
	rate := func(prior []projections.Rating, st []projections.Stint) ([]projections.Rating, []projections.RatingChange) {
		rated = st
		return projections.RateFrom(prior, st)
	}
	if err := repo.SaveStints(ctx, []projections.FoldedGame{game}, rate); err != nil {
		t.Fatal(err)
	}
	if len(rated) != 2 {
		t.Fatalf("the rating was given %d stints, want the 2 just saved", len(rated))
	}
	if s, r := count(); s != 2 || r != 2 {
		t.Fatalf("a game of two seats saved: %d stints, %d ratings", s, r)
	}
	stints, ratings, changes, err := repo.RatedStints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantR, wantC := projections.Rate(stints)
	if len(stints) != 2 || len(ratings) != 2 || len(changes) != 2 ||
		!slices.Equal(projections.NonNil(wantR), projections.NonNil(ratings)) || !slices.Equal(projections.NonNil(wantC), projections.NonNil(changes)) {
		t.Fatalf("RatedStints: %d stints, ratings %v (the stints give %v), changes %v (give %v)", len(stints), ratings, wantR, changes, wantC)
	}
}

// TestSaveStintsRatesTheLastGamesAlone: a game stored for the first time
// that ended after every rated game is rated alone, on from its players'
// stored ratings; a game that ended before another already rated, or one
// stored again, has every rating computed again. Either way the tables
// hold what rating every game at once gives (as verify checks).
func TestSaveStintsRatesTheLastGamesAlone(t *testing.T) {
	clock := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	_, repo, _, _ := newServiceClock(t, &clock)
	ctx := context.Background()
	game := func(id string, h int, a, b string) projections.FoldedGame {
		ended := clock.Add(time.Duration(h) * time.Hour)
		st := func(seat, place int, name string) projections.Stint {
			return projections.Stint{GameID: id, Seat: seat, Game: "lords-of-scotland", Name: name,
				Email: name + "@example.org", Outcome: "finished", Place: place, MoveMillis: []int64{}, EndedAt: &ended}
		}
		return projections.FoldedGame{ID: id, Version: 40, Stints: []projections.Stint{st(0, 1, a), st(1, 2, b)}}
	}
	var gotPrior []projections.Rating
	var gotStints []projections.Stint
	rate := func(prior []projections.Rating, st []projections.Stint) ([]projections.Rating, []projections.RatingChange) {
		gotPrior, gotStints = prior, st
		return projections.RateFrom(prior, st)
	}
	for _, step := range []struct {
		name   string
		game   projections.FoldedGame
		alone  bool // rated alone, on from the stored ratings
		prior  int  // the ratings it goes on from
		stints int  // the stints rated
	}{
		{"the first game", game("g1", 1, "ann", "bob"), true, 0, 2},
		{"a game ending after it", game("g2", 2, "bob", "cid"), true, 1, 2},
		{"a game that ended before them", game("g0", 0, "ann", "cid"), false, 0, 6},
		{"a game ending last again", game("g3", 3, "cid", "dee"), true, 1, 2},
		{"a game stored again", game("g2", 2, "bob", "cid"), false, 0, 8},
	} {
		if err := repo.SaveStints(ctx, []projections.FoldedGame{step.game}, rate); err != nil {
			t.Fatal(err)
		}
		if alone := gotPrior != nil || len(gotStints) == 2; alone != step.alone || len(gotPrior) != step.prior || len(gotStints) != step.stints {
			t.Errorf("%s: rated %d stints on from %d ratings (alone %v), want %d on from %d (alone %v)",
				step.name, len(gotStints), len(gotPrior), alone, step.stints, step.prior, step.alone)
		}
		stints, ratings, changes, err := repo.RatedStints(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantR, wantC := projections.Rate(stints)
		if !slices.Equal(projections.NonNil(wantR), projections.NonNil(ratings)) || !slices.Equal(projections.NonNil(wantC), projections.NonNil(changes)) {
			t.Fatalf("%s: the tables hold ratings %+v and changes %+v, rating every game gives %+v and %+v", step.name, ratings, changes, wantR, wantC)
		}
	}
}

// BenchmarkSaveStintsWithHistory stores the stints of one more ended
// four-player game on a history of 1,000 rated games: "last" ends after
// them all and is rated alone (rateLast), "late" ended before them and has
// every rating computed again (rerate), as every ended game had before.
//
//	go test ./projections/postgres -run '^$' -bench SaveStintsWithHistory
func BenchmarkSaveStintsWithHistory(b *testing.B) {
	base := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	_, repo, _, _ := playtest.NewService(b, func() time.Time { return base })
	ctx := context.Background()
	game := func(id string, ended time.Time, k int) projections.FoldedGame {
		g := projections.FoldedGame{ID: id, Version: 150}
		for seat := range 4 {
			name := fmt.Sprintf("p%d", (k+seat*7)%40)
			g.Stints = append(g.Stints, projections.Stint{GameID: id, Seat: seat, Game: "lords-of-scotland", Name: name,
				Email: name + "@example.org", Outcome: "finished", Place: seat + 1, MoveMillis: []int64{}, EndedAt: &ended})
		}
		return g
	}
	const history = 1000
	for i := 0; i < history; i += 100 {
		var batch []projections.FoldedGame
		for k := i; k < i+100; k++ {
			batch = append(batch, game(fmt.Sprintf("h%04d", k), base.Add(time.Duration(k)*time.Minute), k))
		}
		if err := repo.SaveStints(ctx, batch, projections.RateFrom); err != nil {
			b.Fatal(err)
		}
	}
	n := 0
	for _, c := range []struct {
		name string
		at   func(i int) time.Time
	}{
		{"last", func(i int) time.Time { return base.Add(time.Duration(history+i) * time.Minute) }},
		{"late", func(i int) time.Time { return base.Add(-time.Duration(i+1) * time.Minute) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				n++
				if err := repo.SaveStints(ctx, []projections.FoldedGame{game(fmt.Sprintf("n%06d", n), c.at(n), n)}, projections.RateFrom); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGameEndOnALongHistory stores the stints of one more ended
// four-player game, ending after all others, on a history of 100,000
// finished games (400,000 stints, written by SQL: the ratings are not
// computed for them), with the index endLast reads (migration 0106) and,
// side by side in the same run, without it.
//
//	go test ./projections/postgres -run '^$' -bench GameEndOnALongHistory
func BenchmarkGameEndOnALongHistory(b *testing.B) {
	base := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	_, repo, _, pool := playtest.NewService(b, func() time.Time { return base })
	ctx := context.Background()
	const history = 100_000
	if _, err := pool.Exec(ctx, `INSERT INTO seat_records (game_id, seat, stint, game, name, email, outcome, place, ended_at)
		SELECT 'h' || lpad(g::text, 7, '0'), s, 0, 'lords-of-scotland', 'p' || (g + s * 7) % 400,
			'p' || (g + s * 7) % 400 || '@example.org', 'finished', s + 1, $1::timestamptz + g * interval '1 minute'
		FROM generate_series(1, $2::int) g, generate_series(0, 3) s`, base, history); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `ANALYZE seat_records`); err != nil {
		b.Fatal(err)
	}
	n := 0
	end := func(b *testing.B) {
		for b.Loop() {
			n++
			id, ended := fmt.Sprintf("n%06d", n), base.Add(time.Duration(history+n)*time.Minute)
			g := projections.FoldedGame{ID: id, Version: 150}
			for seat := range 4 {
				name := fmt.Sprintf("p%d", (n+seat*7)%400)
				g.Stints = append(g.Stints, projections.Stint{GameID: id, Seat: seat, Game: "lords-of-scotland", Name: name,
					Email: name + "@example.org", Outcome: "finished", Place: seat + 1, MoveMillis: []int64{}, EndedAt: &ended})
			}
			if err := repo.SaveStints(ctx, []projections.FoldedGame{g}, projections.RateFrom); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("index", end)
	if _, err := pool.Exec(ctx, `DROP INDEX seat_records_finished`); err != nil {
		b.Fatal(err)
	}
	b.Run("no-index", end)
}
