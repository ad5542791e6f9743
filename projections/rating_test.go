package projections_test

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
	"time"

	"pbem/projections"
)

// TestRateGames: each finished game is a Glicko-2 period of its table's
// pairwise results, in the order the games ended; a bot's seat, or a
// person's a bot played at the end, rates the bot of that level (marked),
// two seats of one bot level are one player, a tie scores a half, and a
// person's abandoned stint, an aborted game and a game of one player are
// not rated.
func TestRateGames(t *testing.T) {
	at := func(h int) *time.Time { x := time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC); return &x }
	fin := func(game string, seat, place int, email, bot, handed string, h int) projections.Stint {
		return projections.Stint{GameID: game, Game: "lords-of-scotland", Seat: seat, Name: "N" + email, Email: email, Bot: bot, Handed: handed,
			Outcome: projections.OutcomeFinished, Place: place, EndedAt: at(h)}
	}
	stints := []projections.Stint{
		// g2 ends after g1, though its id sorts first.
		fin("g2", 0, 1, "ann@x", "", "", 5), fin("g2", 1, 2, "bob@x", "", "", 5),
		fin("g1", 0, 1, "bob@x", "", "", 3), fin("g1", 1, 1, "", "easy", "", 3), fin("g1", 2, 3, "cid@x", "", "normal", 3),
		{GameID: "g1", Game: "lords-of-scotland", Seat: 2, Email: "dee@x", Outcome: projections.OutcomeLeft, EndedAt: at(2)},
		fin("g3", 0, 1, "", "easy", "", 7), fin("g3", 1, 2, "", "easy", "", 7),
		{GameID: "g4", Game: "lords-of-scotland", Seat: 0, Email: "ann@x", Outcome: projections.OutcomeAborted, EndedAt: at(8)},
	}
	ratings, changes := projections.Rate(stints)
	byPlayer := map[string]projections.Rating{}
	for _, r := range ratings {
		byPlayer[r.Player] = r
	}
	if len(ratings) != 4 || byPlayer["dee@x"].Games != 0 || byPlayer["cid@x"].Games != 0 {
		t.Fatalf("ratings %+v: want ann, bob, bot:easy and bot:normal", ratings)
	}
	if b := byPlayer["bot:normal"]; b.Bot != "normal" || b.Games != 1 || b.Name != "normal" {
		t.Errorf("the bot that played Cid's seat at the end: %+v", b)
	}
	if b := byPlayer["bot:easy"]; b.Bot != "easy" || b.Games != 1 {
		t.Errorf("the easy bot (g3, against itself, is not rated): %+v", b)
	}
	// g1 first: Bob ties the easy bot (½) and beats the normal one (1),
	// all from 1500/350/0.06.
	start := projections.NewGlicko()
	bob1 := projections.Glicko2Update(start, []projections.Outcome{{Opponent: start, Score: 0.5}, {Opponent: start, Score: 1}})
	// Then g2: Ann (new) beats Bob (as g1 left him).
	bob2 := projections.Glicko2Update(bob1, []projections.Outcome{{Opponent: start, Score: 0}})
	if got := byPlayer["bob@x"]; got.Rating != bob2.R || got.RD != bob2.RD || got.Volatility != bob2.Vol || got.Games != 2 {
		t.Errorf("Bob: %+v, want %+v after two games", got, bob2)
	}
	if len(changes) != 5 || changes[0].GameID != "g1" || changes[0].Before != start || changes[0].After != bob1 ||
		changes[3].GameID != "g2" || changes[4].Before != bob1 || changes[4].After != bob2 {
		t.Errorf("changes %+v", changes)
	}
}

// TestRateFromGoesOnAsRate: rating the games that ended last from the
// ratings the earlier games gave (RateFrom) gives the ratings and changes
// that rating every game at once (Rate) gives: the same floats, names,
// bots and counts, for the players of the later games and the others.
func TestRateFromGoesOnAsRate(t *testing.T) {
	at := func(h int) *time.Time { x := time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC); return &x }
	fin := func(game string, seat, place int, email, bot, handed string, h int) projections.Stint {
		return projections.Stint{GameID: game, Game: "lords-of-scotland", Seat: seat, Name: "N" + email, Email: email, Bot: bot, Handed: handed,
			Outcome: projections.OutcomeFinished, Place: place, EndedAt: at(h)}
	}
	earlier := []projections.Stint{
		fin("g1", 0, 1, "bob@x", "", "", 3), fin("g1", 1, 1, "", "easy", "", 3), fin("g1", 2, 3, "cid@x", "", "normal", 3),
		fin("g2", 0, 1, "ann@x", "", "", 5), fin("g2", 1, 2, "bob@x", "", "", 5),
	}
	later := []projections.Stint{
		// g0 sorts first by id but ends after the earlier games.
		fin("g0", 0, 2, "ann@x", "", "", 6), fin("g0", 1, 1, "", "easy", "", 6), fin("g0", 2, 3, "dee@x", "", "", 6),
		fin("g5", 0, 1, "bob@x", "", "", 9), fin("g5", 1, 2, "dee@x", "", "", 9),
		{GameID: "g6", Game: "lords-of-scotland", Seat: 0, Email: "ann@x", Outcome: projections.OutcomeAborted, EndedAt: at(10)},
	}
	wantR, wantC := projections.Rate(append(append([]projections.Stint{}, earlier...), later...))
	prior, priorC := projections.RateFrom(nil, earlier)
	gotR, gotC := projections.RateFrom(prior, later)
	if !reflect.DeepEqual(gotR, wantR) {
		t.Errorf("ratings gone on from the earlier games:\n%+v\nwant\n%+v", gotR, wantR)
	}
	if all := append(priorC, gotC...); !reflect.DeepEqual(projections.NonNil(sortChanges(all)), wantC) {
		t.Errorf("changes of the earlier then the later games:\n%+v\nwant\n%+v", all, wantC)
	}
	if len(gotC) != 5 || gotC[0].GameID != "g0" {
		t.Errorf("RateFrom gave the changes %+v, want the later games' 5", gotC)
	}
}

// sortChanges sorts changes by game id then seat, as Rate gives them.
func sortChanges(cs []projections.RatingChange) []projections.RatingChange {
	slices.SortFunc(cs, func(a, b projections.RatingChange) int {
		return cmp.Or(cmp.Compare(a.GameID, b.GameID), cmp.Compare(a.Seat, b.Seat))
	})
	return cs
}
