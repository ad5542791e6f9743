package api_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pbem/projections/testgame"
)

// playRandom plays game id to its end through the API, each seat picking a
// random legal move, and returns the number of moves. check, if set, runs
// after every move.
func (e *env) playRandom(id string, seats int, rng *rand.Rand, check func()) int {
	e.t.Helper()
	moves := 0
	for range 5000 {
		var sm summaryBody
		if st := e.do("GET", "/api/v1/games/"+id, "", nil, &sm); st != http.StatusOK {
			e.t.Fatalf("summary: %d", st)
		}
		if sm.Status != "active" {
			return moves
		}
		seat := sm.ToMove[rng.IntN(len(sm.ToMove))]
		var v viewBody
		if st := e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, seat), nil, &v); st != http.StatusOK {
			e.t.Fatalf("view: %d", st)
		}
		if len(v.LegalMoves) == 0 {
			e.t.Fatalf("seat %d is to move but has no legal move", seat)
		}
		mv := v.LegalMoves[rng.IntN(len(v.LegalMoves))]
		var nv viewBody
		body := map[string]any{"version": v.Version, "move": mv}
		if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, seat), body, &nv); st != http.StatusOK {
			e.t.Fatalf("move %s: status %d", mv, st)
		}
		if nv.Version <= v.Version {
			e.t.Fatalf("version did not move: %d -> %d", v.Version, nv.Version)
		}
		moves++
		if check != nil {
			check()
		}
	}
	e.t.Fatalf("game %s did not end", id)
	return moves
}

func TestPlayTestGameToTheEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for n := 2; n <= 5; n++ {
		c := e.create(testgame.Name, n, `{"target":20}`)
		e.playRandom(c.ID, n, rand.New(rand.NewPCG(uint64(n), 7)), nil)
		var sm summaryBody
		e.do("GET", "/api/v1/games/"+c.ID, "", nil, &sm)
		if sm.Status != "finished" || sm.Result == nil || len(sm.Result.Ranking) != n {
			t.Fatalf("%d players: summary %+v", n, sm)
		}
		for i := 1; i < n; i++ {
			if sm.Result.Ranking[i].Score > sm.Result.Ranking[i-1].Score {
				t.Errorf("ranking not by score: %+v", sm.Result.Ranking)
			}
		}
		var a struct {
			Seed   string            `json:"seed"`
			Events []json.RawMessage `json:"events"`
		}
		if st := e.do("GET", "/api/v1/games/"+c.ID+"/audit", "", nil, &a); st != http.StatusOK || len(a.Seed) != 64 || int64(len(a.Events)) != sm.Version {
			t.Fatalf("audit: %d, seed %q, %d events", st, a.Seed, len(a.Events))
		}
	}
}

func TestSameMoveTwiceAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 2, `{}`)
	var v viewBody
	e.do("GET", "/api/v1/games/"+c.ID+"/view", seatToken(c.ID, 0), nil, &v)
	body := map[string]any{"version": v.Version, "move": v.LegalMoves[0]}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.do("POST", "/api/v1/games/"+c.ID+"/moves", seatToken(c.ID, 0), body, nil)
		}()
	}
	wg.Wait()
	if !(statuses[0] == 200 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 200) {
		t.Fatalf("statuses %v, want one 200 and one 409", statuses)
	}
	var sm summaryBody
	e.do("GET", "/api/v1/games/"+c.ID, "", nil, &sm)
	if sm.Version != v.Version+1 && sm.Version != v.Version+2 { // a move may add a round_ended event
		t.Fatalf("version %d after one move from %d", sm.Version, v.Version)
	}
	var h struct {
		Events []struct {
			Actor string `json:"actor"`
		} `json:"events"`
	}
	e.do("GET", "/api/v1/games/"+c.ID+"/history", seatToken(c.ID, 0), nil, &h)
	moves := 0
	for _, ev := range h.Events {
		if ev.Actor == "seat:0" {
			moves++
		}
	}
	if moves != 1 {
		t.Fatalf("%d events by seat 0, want 1", moves)
	}
}

func TestRetryWithSameIDAppendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 3, `{}`)
	var v viewBody
	e.do("GET", "/api/v1/games/"+c.ID+"/view", seatToken(c.ID, 0), nil, &v)
	body := map[string]any{"version": v.Version, "move": v.LegalMoves[0], "id": "req-1"}
	var first, again strings.Builder
	for i, out := range []*strings.Builder{&first, &again} {
		var raw json.RawMessage
		if st := e.do("POST", "/api/v1/games/"+c.ID+"/moves", seatToken(c.ID, 0), body, &raw); st != 200 {
			t.Fatalf("post %d: status %d %s", i, st, raw)
		}
		out.Write(raw)
	}
	if first.String() != again.String() {
		t.Fatalf("retry answered differently:\n%s\n%s", first.String(), again.String())
	}
	var sm summaryBody
	e.do("GET", "/api/v1/games/"+c.ID, "", nil, &sm)
	if sm.Version != v.Version+1 {
		t.Fatalf("version %d, want %d", sm.Version, v.Version+1)
	}
	if sm.ToMove[0] != 1 {
		t.Fatalf("to_move %v", sm.ToMove)
	}
	_ = strconv.Itoa
}
