package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// TestRoundEndLeavesOutAMoveTakenBack: a Lords of Scotland seat claims a
// supporter, takes the claim back and claims another; the round-end
// summary (the email's table) lists the claim that stands, not the one
// taken back, as the play page's state does. It once replayed the seat's
// history rows, the move taken back among them, and listed both claims.
func TestRoundEndLeavesOutAMoveTakenBack(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(27, 3))
	c := e.create(lords.Name, "en", 3)
	names := []string{"P0", "P1", "P2"}
	move := func(seat int, version int64, m engine.Move) int64 {
		t.Helper()
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		v, err := e.svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: version, Move: play.PostedMove(b)})
		if err != nil {
			t.Fatalf("move %s of seat %d: %v", b, seat, err)
		}
		return v.Version
	}

	// Play at random until a seat has two supporters to choose from and
	// may take back its claim of the first; claim it, take it back, claim
	// the other.
	seat, back := -1, int64(0)
	for moves := 0; back == 0; moves++ {
		row, eng, st := e.state(c.ID)
		if row.Ended() || moves > 3000 {
			t.Fatal("no claim of a supporter that could be taken back in a whole game")
		}
		seat = row.ToMove[rng.IntN(len(row.ToMove))]
		legal := st.Legal(seat)
		var claims []engine.Move
		for _, m := range legal {
			if lm, ok := m.(*lords.Move); ok && lm.Type == lords.MoveClaim {
				claims = append(claims, m)
			}
		}
		if len(claims) >= 2 {
			if evs, err := st.Decide(seat, claims[0]); err == nil && eng.Reversible(evs) {
				moved := move(seat, row.Version, claims[0])
				tok := tokens.Seat([]byte("secret"), c.ID, seat, row.SeatAt(seat).TokenGen)
				v, err := e.svc.Takeback(ctx, c.ID, tok, play.TakebackRequest{Version: moved})
				if err != nil {
					t.Fatalf("take back the claim at v%d: %v", moved, err)
				}
				back = v.Version
				move(seat, back, claims[1])
				continue
			}
		}
		move(seat, row.Version, legal[rng.IntN(len(legal))])
	}

	// Play on to the round's end.
	var end int64
	for moves := 0; end == 0; moves++ {
		row, _, st := e.state(c.ID)
		if row.Ended() || moves > 3000 {
			t.Fatal("the round does not end")
		}
		evs, err := e.store.ReadStream(ctx, c.ID, back)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.Type == lords.EvRoundEnded {
				end = ev.Version
				break
			}
		}
		if end == 0 {
			s := row.ToMove[rng.IntN(len(row.ToMove))]
			legal := st.Legal(s)
			move(s, row.Version, legal[rng.IntN(len(legal))])
		}
	}

	// The round as seat saw it, with and without the claim taken back.
	stored, err := e.store.ReadStream(ctx, c.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var tb pbemevent.Takeback
	if err := json.Unmarshal(stored[back-1].Data, &tb); err != nil || stored[back-1].Type != pbemevent.TypeTakeback {
		t.Fatalf("v%d is %s, not the take-back: %v", back, stored[back-1].Type, err)
	}
	eng := e.games[lords.Name]
	var all, standing []engine.Event
	for _, ev := range stored[:end] {
		if pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		x, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, eng.Redact(x, seat))
		if ev.Version < tb.From || ev.Version > tb.Version {
			standing = append(standing, eng.Redact(x, seat))
		}
	}
	want, wrong := eng.RoundSummary(standing, names, "en"), eng.RoundSummary(all, names, "en")
	if want == nil || reflect.DeepEqual(want, wrong) {
		t.Fatalf("the claim taken back at v%d–%d changes nothing in the round's summary %+v", tb.From, tb.Version, want)
	}

	seats := postgres.NewSeats(e.pool, postgres.Histories{Games: e.games, Events: e.store})
	sts, err := seats.Stories(ctx, []notify.StoryRequest{{GameID: c.ID, Seat: seat, Upto: end, Kind: outbox.RoundEnd}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sts[0].Rounds; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("round-end summary for seat %d at v%d:\n%+v\nwant the claims that stand:\n%+v\n(with the claim taken back at v%d–%d: %+v)",
			seat, end, got, want, tb.From, tb.Version, wrong)
	}
	t.Logf("seat %d took back its claim at v%d–%d; the round ended at v%d: %+v", seat, tb.From, tb.Version, end, want.Rows)
}
