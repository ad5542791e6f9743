package api_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	evpg "pbem/events/postgres"
	"pbem/projections"
)

// cardKeys are the JSON keys under which Lords views, moves and events name
// cards (by rank).
var cardKeys = map[string]bool{"rank": true, "card": true, "replacement": true, "drawn": true, "taken": true,
	"cards": true, "copied": true, "discarded": true, "supporter": true, "supporters": true, "redrawn": true, "kept": true}

// cardsIn collects the card ranks named anywhere in a JSON document.
func cardsIn(data []byte) map[int]bool {
	var v any
	out := map[int]bool{}
	if json.Unmarshal(data, &v) != nil {
		return out
	}
	var walk func(v any, card bool)
	walk = func(v any, card bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(c, cardKeys[k])
			}
		case []any:
			for _, c := range x {
				walk(c, card)
			}
		case float64:
			if card && x > 0 {
				out[int(x)] = true
			}
		}
	}
	walk(v, false)
	return out
}

// knowledge tracks, over a game, which cards each seat may legitimately know.
type knowledge struct {
	public map[int]bool   // ever shown to everyone
	seen   []map[int]bool // ever in the seat's hand, or known by it face-down
}

// hidden returns, for each seat, the cards others hold in hand or
// face-down (or in the piles) that the seat may not know.
func (k *knowledge) hidden(st *lords.State) []map[int]bool {
	n := len(st.Hands)
	for s := range n {
		for _, c := range st.Hands[s] {
			k.seen[s][c] = true
		}
		for _, a := range st.Armies {
			for _, f := range a {
				if f.Known&(1<<uint(s)) != 0 {
					k.seen[s][f.Card] = true
				}
			}
		}
	}
	secret := map[int]bool{}
	for _, h := range st.Hands {
		for _, c := range h {
			secret[c] = true
		}
	}
	for _, a := range st.Armies {
		for _, f := range a {
			if !f.FaceUp {
				secret[f.Card] = true
			}
		}
	}
	for _, c := range st.Draw {
		secret[c] = true
	}
	for _, r := range st.Recruits {
		if !r.FaceUp && r.Card != 0 {
			secret[r.Card] = true
		}
	}
	out := make([]map[int]bool, n)
	for s := range n {
		out[s] = map[int]bool{}
		for c := range secret {
			if !k.public[c] && !k.seen[s][c] {
				out[s][c] = true
			}
		}
	}
	return out
}

// TestLordsOverHTTP plays complete Lords of Scotland games for 2 to 5
// players through the API only, with random legal moves; after every move
// no seat's view names a card hidden from it, and at the end no seat's
// history does, and the summary's ranking is the engine's own result from
// a replay of the audited events.
func TestLordsOverHTTP(t *testing.T) {
	t.Parallel()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, g)
	ctx := context.Background()
	// The whole state after each move, for the test's knowledge of what
	// is hidden: replayed from the events (the stored one is a snapshot).
	store := evpg.New(e.pool)
	defer store.Close()
	for n := 2; n <= 5; n++ {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			e.t = t
			options := `{"bruce":false}`
			if n%2 == 1 {
				options = `{"bruce":true}`
			}
			c := e.create(lords.Name, n, options)
			k := &knowledge{public: map[int]bool{}, seen: make([]map[int]bool, n)}
			for s := range n {
				k.seen[s] = map[int]bool{}
			}
			hiddenAt := map[int64][]map[int]bool{}
			seenVersion := int64(0)
			hiddenSeen := 0
			check := func() {
				row, err := e.repo.Game(ctx, c.ID)
				if err != nil {
					t.Fatal(err)
				}
				now, _, err := projections.Replay(ctx, engine.NewRegistry(g), store, row)
				if err != nil {
					t.Fatal(err)
				}
				st0, err := g.DecodeState(now.Game.State)
				if err != nil {
					t.Fatal(err)
				}
				st := st0.(*lords.State)
				// What the public history and view show is public.
				evs, err := store.ReadStream(ctx, c.ID, seenVersion+1)
				if err != nil {
					t.Fatal(err)
				}
				public, err := projections.SeatHistory(engine.NewRegistry(g), row, evs, engine.Spectator)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range public {
					if h.Version > seenVersion {
						for card := range cardsIn(h.Data) {
							k.public[card] = true
						}
					}
				}
				pub, _ := json.Marshal(st.View(engine.Spectator))
				for card := range cardsIn(pub) {
					k.public[card] = true
				}
				hid := k.hidden(st)
				for v := seenVersion + 1; v <= row.Version; v++ {
					hiddenAt[v] = hid
				}
				seenVersion = row.Version
				for s := range n {
					var v viewBody
					if code := e.do("GET", "/api/v1/games/"+c.ID+"/view", seatToken(c.ID, s), nil, &v); code != 200 {
						t.Fatalf("view %d: %d", s, code)
					}
					all, _ := json.Marshal(v)
					named := cardsIn(all)
					for _, own := range st.Hands[s] {
						if !named[own] {
							t.Fatalf("seat %d's view does not name card %d of its hand: the check is blind", s, own)
						}
					}
					hiddenSeen += len(hid[s])
					for card := range named {
						if hid[s][card] {
							t.Fatalf("version %d: seat %d's view names hidden card %d", v.Version, s, card)
						}
					}
				}
			}
			check()
			if n == 2 {
				lordsErrors(t, e, c.ID)
			}
			moves := e.playRandom(c.ID, n, rand.New(rand.NewPCG(uint64(n), 99)), check)
			for s := range n {
				var h struct {
					Events []struct {
						Version int64           `json:"version"`
						Data    json.RawMessage `json:"data"`
					} `json:"events"`
				}
				e.do("GET", "/api/v1/games/"+c.ID+"/history", seatToken(c.ID, s), nil, &h)
				if int64(len(h.Events)) != seenVersion {
					t.Fatalf("seat %d: %d history entries, version %d", s, len(h.Events), seenVersion)
				}
				for _, ev := range h.Events {
					for card := range cardsIn(ev.Data) {
						if hiddenAt[ev.Version][s][card] {
							t.Fatalf("seat %d's history at version %d names hidden card %d: %s", s, ev.Version, card, ev.Data)
						}
					}
				}
			}
			if hiddenSeen == 0 {
				t.Fatal("no card was ever hidden: the check is blind")
			}
			// The summary ranks as the engine does on a replay of the audit.
			var sm summaryBody
			e.do("GET", "/api/v1/games/"+c.ID, "", nil, &sm)
			var a struct {
				Seed   string `json:"seed"`
				Events []struct {
					Type string          `json:"type"`
					Data json.RawMessage `json:"data"`
				} `json:"events"`
			}
			if code := e.do("GET", "/api/v1/games/"+c.ID+"/audit", "", nil, &a); code != 200 {
				t.Fatalf("audit: %d", code)
			}
			var seed engine.Seed
			b, _ := hex.DecodeString(a.Seed)
			copy(seed[:], b)
			st, err := g.New(engine.Setup{Players: n, Options: json.RawMessage(options), Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range a.Events[1:] {
				de, err := g.DecodeEvent(ev.Type, ev.Data)
				if err != nil {
					t.Fatalf("decode %s: %v", ev.Type, err)
				}
				st.Apply(de)
			}
			want := st.Result()
			if want == nil || sm.Result == nil || len(sm.Result.Ranking) != len(want.Ranking) {
				t.Fatalf("result: replay %+v, summary %+v", want, sm.Result)
			}
			for i, w := range want.Ranking {
				got := sm.Result.Ranking[i]
				if got.Seat != w.Seat || got.Place != w.Place || got.Score != w.Score {
					t.Fatalf("ranking[%d] = %+v, replay says %+v", i, got, w)
				}
			}
			t.Logf("%d players: %d moves, %d events, winner %s with %d", n, moves, seenVersion,
				sm.Result.Ranking[0].Name, sm.Result.Ranking[0].Score)
		})
	}
}

// lordsErrors checks the rule errors of Lords over HTTP: an unknown field
// in a move, another seat's move, a made-up move.
func lordsErrors(t *testing.T, e *env, id string) {
	t.Helper()
	var v viewBody
	e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, 0), nil, &v)
	var mv map[string]any
	if err := json.Unmarshal(v.LegalMoves[0], &mv); err != nil {
		t.Fatal(err)
	}
	mv["colour"] = "red"
	var eb errBody
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, 0), map[string]any{"version": v.Version, "move": mv}, &eb); st != 400 || eb.Error.Code != "bad_move" {
		t.Fatalf("unknown field in a Lords move: %d %+v", st, eb)
	}
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, 1), map[string]any{"version": v.Version, "move": v.LegalMoves[0]}, &eb); st != 403 || eb.Error.Code != "not_your_turn" {
		t.Fatalf("seat 1 plays seat 0's move: %d %+v", st, eb)
	}
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, 0), map[string]any{"version": v.Version, "move": map[string]any{"type": "recruit", "slot": 7, "label": "x"}}, &eb); st != 400 && st != 422 {
		t.Fatalf("a made-up move: %d %+v", st, eb)
	}
}
