package projections_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"pbem/events/pbemevent"
	"reflect"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/projections"
)

// randomStream plays a random whole game of eng for n players (seed and
// language from r) and returns its stream, with table talk, replaced players and taken
// back moves among the moves, and the history rows the projector's row
// builder gives each event when it is applied (EventHistory with the
// players after the event: the rows the history table held), and the
// game rows after each event.
func randomStream(t *testing.T, eng engine.Game, n int, r *rand.Rand) ([]events.Event, []projections.HistoryRow, []*projections.Game) {
	t.Helper()
	games := engine.NewRegistry(eng)
	lang := []string{"en", "fr", "it"}[r.IntN(3)]
	var seed engine.Seed
	for i := range seed {
		seed[i] = byte(r.IntN(256))
	}
	players := make([]string, n)
	seats := make([]projections.Seat, n)
	for i := range n {
		players[i] = fmt.Sprintf("P%d", i)
		seats[i] = projections.Seat{Seat: i, Name: players[i], Email: fmt.Sprintf("p%d@example.org", i)}
	}
	created, _ := json.Marshal(pbemevent.Created{Game: eng.Name(), RulesVersion: "1", Players: players,
		Options: json.RawMessage(`{}`), Language: lang, Seed: fmt.Sprintf("%x", seed[:]), SeedHash: pbemevent.SeedHash(seed),
		TurnDeadline: "72h", ReminderBefore: "12h", TimeoutPolicy: "pause", ChainFormat: events.FormatCommitted})
	var evs []events.Event
	var want []projections.HistoryRow
	var rows []*projections.Game
	p := &projections.Projector{Games: games, Game: &projections.Game{ID: "g", Seats: seats},
		Now: func(e events.Event) time.Time { return e.RecordedAt },
		Rewind: func(from int64) (engine.State, error) {
			_, st, err := pbemevent.StateBefore(games, evs, from)
			return st, err
		}}
	at := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	// A decision's events are one append: its time, and its first event
	// its key, as the service writes a keyed move (pbemevent.SameAppend).
	var appendAt time.Time
	var key string
	var steps pbemevent.Steps
	add := func(typ, actor string, data []byte, ev engine.Event) {
		t.Helper()
		v := int64(len(evs) + 1)
		h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(v)))
		when := at.Add(time.Duration(v) * time.Minute)
		if !appendAt.IsZero() {
			when = appendAt
		}
		e := events.Event{Stream: "g", Version: v, Type: typ, Data: data, Meta: events.Metadata{Actor: actor, IdempotencyKey: key},
			Hash: h[:], RecordedAt: when}
		key = ""
		if len(evs) > 0 {
			e.PrevHash = evs[len(evs)-1].Hash
		}
		evs = append(evs, e)
		if _, err := p.Apply([]events.Event{e}, []engine.Event{ev}); err != nil {
			t.Fatalf("apply v%d %s: %v", v, typ, err)
		}
		hist, err := projections.EventHistory(eng, p.Game, lang, p.Game.Players, e, ev)
		if err != nil {
			t.Fatal(err)
		}
		// The game's own steps, told from the whole stream as it grows
		// (every act here is a seat's, "seat:N"; a decision's first
		// event is its seat's act).
		for i := range hist {
			told, as := e, steps // each row told from the data its reader sees
			told.Data = hist[i].Data
			hist[i].Step = as.Next(told)
		}
		steps.Next(e)
		want = append(want, hist...)
		rows = append(rows, p.Game.Clone())
	}
	add(pbemevent.TypeCreated, "admin", created, nil)
	var last []int64 // the versions of the last seat's move, if it was one
	lastSeat := -1
	for step := 0; step < 2000 && p.State.Result() == nil; step++ {
		switch k := r.IntN(40); {
		case k == 0:
			s := r.IntN(n)
			data, _ := json.Marshal(pbemevent.Chat{Seat: s, Text: fmt.Sprintf("hello %d", step)})
			add(pbemevent.TypeChat, fmt.Sprintf("seat:%d", s), data, nil)
			continue
		case k == 1:
			s := r.IntN(n)
			data, _ := json.Marshal(pbemevent.PlayerReplaced{Seat: s, Name: fmt.Sprintf("R%d", step), Previous: p.Game.Players[s], TokenGen: step})
			add(pbemevent.TypePlayerReplaced, "admin", data, nil)
			last = nil
			continue
		case k == 2 && last != nil:
			data, _ := json.Marshal(pbemevent.Takeback{Seat: lastSeat, Version: last[len(last)-1], From: last[0]})
			add(pbemevent.TypeTakeback, fmt.Sprintf("seat:%d", lastSeat), data, nil)
			last = nil
			continue
		}
		st := p.State
		toMove := st.ToMove()
		if len(toMove) == 0 {
			break
		}
		seat := toMove[r.IntN(len(toMove))]
		legal := st.Legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seat %d awaited without a legal move", seat)
		}
		decided, err := st.Decide(seat, legal[r.IntN(len(legal))])
		if err != nil {
			t.Fatalf("decide: %v", err)
		}
		last, lastSeat = nil, seat
		appendAt, key = at.Add(time.Duration(len(evs)+1)*time.Minute), fmt.Sprintf("seat:%d:k%d", seat, len(evs)+1)
		for _, ev := range decided {
			data, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			add(ev.EventType(), fmt.Sprintf("seat:%d", seat), data, ev)
			last = append(last, int64(len(evs)))
		}
		appendAt = time.Time{}
	}
	return evs, want, rows
}

// seatRows is what the history table gave seat (SELECT DISTINCT ON
// (version) ... WHERE seat IN (-1, seat) ORDER BY version, seat DESC):
// each version's row of seat if it had one, else its public row.
func seatRows(all []projections.HistoryRow, seat int) []projections.HistoryRow {
	var out []projections.HistoryRow
	for _, r := range all {
		switch {
		case r.Seat == engine.Spectator:
			out = append(out, r)
		case r.Seat == seat:
			out[len(out)-1] = r
		}
	}
	return out
}

// TestSeatHistoryEqualsTheProjectorsRows plays random whole games of both
// engines and checks that the history told from the events (SeatHistory),
// for every seat and the public, from the start or after any version,
// with the game row read at any version up to the stream's head, equals
// the rows the projector's row builder gave each event as it was applied.
func TestSeatHistoryEqualsTheProjectorsRows(t *testing.T) {
	t.Parallel()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []engine.Game{lg, bagpipes.Game{}} {
		games := engine.NewRegistry(eng)
		for i := range 4 {
			r := rand.New(rand.NewPCG(uint64(i), 18))
			evs, all, rows := randomStream(t, eng, 2+i%3, r)
			replaced, tookBack := 0, 0
			for _, e := range evs {
				replaced += b2i(e.Type == pbemevent.TypePlayerReplaced)
				tookBack += b2i(e.Type == pbemevent.TypeTakeback)
			}
			t.Logf("%s game %d: %d events, %d players, %d replacements, %d take-backs", eng.Name(), i, len(evs), len(rows[0].Players), replaced, tookBack)
			for seat := engine.Spectator; seat < len(rows[0].Players); seat++ {
				want := seatRows(all, seat)
				for range 8 {
					// The game row as a reader finds it (any version), then
					// the stream from after (at most the row's version).
					g := rows[r.IntN(len(rows))]
					after := r.Int64N(g.Version)
					got, err := projections.SeatHistory(games, g, evs[after:], seat)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want[after:]) {
						t.Fatalf("%s game %d seat %d after v%d (row at v%d): %s", eng.Name(), i, seat, after, g.Version, firstDiff(got, want[after:]))
					}
				}
			}
		}
	}
}

// TestSeatHistoryKeepsOtherSeatsSecrets: for every event that some seat
// sees otherwise than the public (its own hidden cards, its secret side),
// no other seat's history carries that seat's row, its data or its line,
// as a cheat reading their own history would look for them; and a seat
// that chose a side in secret reads it in its own history (a user trial:
// "Alice has made their choice." in Alice's own).
func TestSeatHistoryKeepsOtherSeatsSecrets(t *testing.T) {
	t.Parallel()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []engine.Game{lg, bagpipes.Game{}} {
		games := engine.NewRegistry(eng)
		evs, all, rows := randomStream(t, eng, 4, rand.New(rand.NewPCG(7, 18)))
		g := rows[len(rows)-1]
		private := map[int64]map[int]string{} // version, seat: what only that seat sees
		lines := map[int64]map[int]string{}   // version, seat: its line, where it tells more than the public's
		public := map[int64]string{}
		ownSides := 0
		for _, r := range all {
			if r.Seat == engine.Spectator {
				public[r.Version] = r.Summary
				continue
			}
			if private[r.Version] == nil {
				private[r.Version], lines[r.Version] = map[int]string{}, map[int]string{}
			}
			private[r.Version][r.Seat] = string(r.Data)
			if r.Summary != public[r.Version] {
				lines[r.Version][r.Seat] = r.Summary
				ownSides += b2i(r.Type == bagpipes.EvtChoiceMade)
			}
		}
		if eng.Name() == bagpipes.Name && ownSides == 0 {
			t.Fatalf("%s: no seat reads its own secret side in its history", eng.Name())
		}
		if len(private) == 0 {
			t.Fatalf("%s: no event is seen privately: the check is blind", eng.Name())
		}
		secrets := 0
		for seat := engine.Spectator; seat < len(g.Players); seat++ {
			got, err := projections.SeatHistory(games, g, evs, seat)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range got {
				if r.Seat != engine.Spectator && r.Seat != seat {
					t.Fatalf("%s: seat %d is given seat %d's row of v%d", eng.Name(), seat, r.Seat, r.Version)
				}
				for other, data := range private[r.Version] {
					if other == seat || data == private[r.Version][seat] {
						continue
					}
					secrets++
					if string(r.Data) == data {
						t.Fatalf("%s: seat %d's history of v%d is seat %d's private row %s", eng.Name(), seat, r.Version, other, data)
					}
					if line, ok := lines[r.Version][other]; ok && r.Summary == line {
						t.Fatalf("%s: seat %d's history of v%d tells seat %d's secret line %q", eng.Name(), seat, r.Version, other, line)
					}
				}
			}
		}
		if secrets == 0 {
			t.Fatalf("%s: no secret of another seat was ever checked", eng.Name())
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// firstDiff names the first row where got and want differ.
func firstDiff(got, want []projections.HistoryRow) string {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d rows, want %d", len(got), len(want))
}

// TestShowsHashes: a game whose chain commits to its data (format 2)
// shows its hashes while it runs; an older game (format 1, data in clear)
// only once it has ended (issue #28).
func TestShowsHashes(t *testing.T) {
	t.Parallel()
	key := events.CommitKeyFrom([32]byte{1})
	for _, tc := range []struct {
		key    *events.CommitKey
		status string
		want   bool
	}{
		{&key, projections.StatusActive, true},
		{&key, projections.StatusFinished, true},
		{nil, projections.StatusActive, false},
		{nil, projections.StatusPaused, false},
		{nil, projections.StatusFinished, true},
		{nil, projections.StatusAborted, true},
	} {
		g := &projections.Game{CommitKey: tc.key, Status: tc.status}
		if got := projections.ShowsHashes(g); got != tc.want {
			t.Errorf("format %d, %s: ShowsHashes %v, want %v", tc.key.Format(), tc.status, got, tc.want)
		}
	}
}
