package pbemevent_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections/testgame"
)

// replayStream is a game of testgame: two moves of seat 1 taken back (one
// of two events, then one of one), table talk between the moves.
//
//	v1 pbem.created   v2 played (seat 0)   v3 pbem.chat
//	v4 played, v5 drew (seat 1's move)     v6 pbem.takeback of v4–v5
//	v7 played (seat 1)                     v8 pbem.takeback of v7
//	v9 drew (seat 1)
func replayStream(t *testing.T) []events.Event {
	t.Helper()
	var seed engine.Seed
	seed[0] = 7
	created := pbemevent.Created{Game: testgame.Name, Players: []string{"Ann", "Bob"}, Language: "en",
		Seed: hex.EncodeToString(seed[:]), TurnDeadline: "24h", ReminderBefore: "1h"}
	rows := []struct {
		typ, actor string
		data       any
	}{
		{pbemevent.TypeCreated, "admin", created},
		{"played", "seat:0", testgame.Played{Seat: 0, Card: "c1"}},
		{pbemevent.TypeChat, "seat:1", pbemevent.Chat{Seat: 1, Text: "hm"}},
		{"played", "seat:1", testgame.Played{Seat: 1, Card: "c2"}},
		{"drew", "seat:1", testgame.Drew{Seat: 1, Card: "c3"}},
		{pbemevent.TypeTakeback, "seat:1", pbemevent.Takeback{Seat: 1, Version: 5, From: 4}},
		{"played", "seat:1", testgame.Played{Seat: 1, Card: "c4"}},
		{pbemevent.TypeTakeback, "seat:1", pbemevent.Takeback{Seat: 1, Version: 7, From: 7}},
		{"drew", "seat:1", testgame.Drew{Seat: 1, Card: "c5"}},
	}
	out := make([]events.Event, len(rows))
	for i, r := range rows {
		data, err := json.Marshal(r.data)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = events.Event{Stream: "g1", Version: int64(i + 1), Type: r.typ, Data: data, Meta: events.Metadata{Actor: r.actor}}
	}
	return out
}

// TestStandingEventsSkipRules pins the one skip rule of every replay: the
// service's events never, a move taken back by a take-back within the
// span never (one after the span does not count yet: the state before it
// still had the move), and only versions after span.After (a snapshot's)
// and below span.Before.
func TestStandingEventsSkipRules(t *testing.T) {
	evs := replayStream(t)
	eng := testgame.Game{}
	for _, tc := range []struct {
		span pbemevent.Span
		want []int64
	}{
		{pbemevent.Span{}, []int64{2, 9}},
		{pbemevent.Span{Before: 6}, []int64{2, 4, 5}},     // before the first take-back
		{pbemevent.Span{Before: 8}, []int64{2, 7}},        // v7 stands until v8 takes it back
		{pbemevent.Span{After: 4}, []int64{9}},            // v5 taken back though v4 precedes the span
		{pbemevent.Span{After: 6, Before: 8}, []int64{7}}, // the take-back at v6 before the span still counts
		{pbemevent.Span{After: 2, Before: 3}, nil},        // nothing but table talk
		{pbemevent.Span{After: 9}, nil},                   // a snapshot at the end
		{pbemevent.Span{After: 1, Before: 100}, []int64{2, 9}},
	} {
		var got []int64
		err := pbemevent.StandingEvents(eng, evs, tc.span, func(e events.Event, ev engine.Event) {
			if ev.EventType() != e.Type {
				t.Errorf("%+v: v%d decoded as %s, stored as %s", tc.span, e.Version, ev.EventType(), e.Type)
			}
			got = append(got, e.Version)
		})
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("StandingEvents within %+v visits %v (%v), want %v", tc.span, got, err, tc.want)
		}
	}

	// TakenBack and Stands say the same of the whole stream.
	back, err := pbemevent.TakenBack(evs)
	if err != nil {
		t.Fatal(err)
	}
	var stand []int64
	for _, e := range evs {
		if back.Stands(e) {
			stand = append(stand, e.Version)
		}
	}
	if !slices.Equal(stand, []int64{2, 9}) || !back[4] || !back[5] || !back[7] || back[6] || back[2] {
		t.Errorf("standing %v, taken back %v", stand, back)
	}

	// StateBefore applies exactly the standing events before its version.
	for before, applied := range map[int64][]int{8: {1, 6}, 10: {1, 8}, 6: {1, 3, 4}} {
		_, got, err := pbemevent.StateBefore(engine.NewRegistry(eng), evs, before)
		if err != nil {
			t.Fatal(err)
		}
		_, want, err := pbemevent.Deal(engine.NewRegistry(eng), evs)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range applied {
			ev, err := eng.DecodeEvent(evs[i].Type, evs[i].Data)
			if err != nil {
				t.Fatal(err)
			}
			want.Apply(ev)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("StateBefore(%d) = %s, want %s", before, g, w)
		}
	}
}

// TestStandingEventsNamesWhatDoesNotDecode: an engine event its engine
// refuses, or a take-back that does not decode, is a *DecodeError naming
// its version; an event taken back is skipped before it is decoded.
func TestStandingEventsNamesWhatDoesNotDecode(t *testing.T) {
	for _, tc := range []struct {
		version int64
		typ     string
		data    string
		bad     int64 // the version named, 0: none
	}{
		{9, "bogus", `{}`, 9},
		{9, "played", `[`, 9},
		{6, pbemevent.TypeTakeback, `{"version":"x"}`, 6},
		{5, "bogus", `{}`, 0}, // taken back by v6
	} {
		evs := replayStream(t)
		evs[tc.version-1].Type, evs[tc.version-1].Data = tc.typ, json.RawMessage(tc.data)
		err := pbemevent.StandingEvents(testgame.Game{}, evs, pbemevent.Span{}, func(events.Event, engine.Event) {})
		var de *pbemevent.DecodeError
		switch {
		case tc.bad == 0 && err != nil:
			t.Errorf("v%d %s %s: %v, want none", tc.version, tc.typ, tc.data, err)
		case tc.bad != 0 && (!errors.As(err, &de) || de.Version != tc.bad || de.Stream != "g1"):
			t.Errorf("v%d %s %s: %v, want a DecodeError of v%d", tc.version, tc.typ, tc.data, err, tc.bad)
		}
	}
}

// rulesOf is testgame, remembering the rules version it was asked to deal.
type rulesOf struct {
	testgame.Game
	rules *string
}

func (g rulesOf) New(su engine.Setup) (engine.State, error) {
	*g.rules = su.Rules
	return g.Game.New(su)
}

// TestDealKeepsTheGamesRulesVersion: a game dealt again for its replay or
// audit is dealt under the rules version its pbem.created names, so that
// it plays as when its events were written (bagpipes' ruling 4 took plays
// of no unit out of the legal moves of the games begun after it).
func TestDealKeepsTheGamesRulesVersion(t *testing.T) {
	evs := replayStream(t)
	var c pbemevent.Created
	if err := json.Unmarshal(evs[0].Data, &c); err != nil {
		t.Fatal(err)
	}
	c.RulesVersion = "testgame-0"
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	evs[0].Data = data
	var dealt string
	if _, _, err := pbemevent.Deal(engine.Registry{testgame.Name: rulesOf{rules: &dealt}}, evs); err != nil {
		t.Fatal(err)
	}
	if dealt != "testgame-0" {
		t.Errorf("dealt under %q, want the created game's testgame-0", dealt)
	}
}
