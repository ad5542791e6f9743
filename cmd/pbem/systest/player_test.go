package systest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"pbem/events/tokens"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ackedMove is a move the API answered 200 to: it must be in the store.
type ackedMove struct {
	game string
	seat int
	key  string    // the move's idempotency key ("id" in the request)
	at   time.Time // when the answer came
}

// players play Lords of Scotland games over the HTTP API, several at once,
// as people would: create a game, read the play links from the emails, and
// play the listed moves. A request that fails (no answer, or a 5xx) is sent
// again as it was, with the same idempotency key, until it gets an answer;
// every 200 to a move is remembered.
type players struct {
	t    testing.TB
	tag  string // makes the players' addresses unique among players objects
	base string
	in   *inbox
	http *http.Client

	mu        sync.Mutex
	acked     []ackedMove
	status    map[int]int // answers by HTTP status, moves and views
	transport int         // requests without an answer
	games     int         // games created (201)
	finished  int
	log       []event // answers with a time, for the failover report
}

// event is one request: when it was sent, when its answer (status, or 0
// for none) came, and whether it was a write.
type event struct {
	sent, at time.Time
	status   int
	write    bool
}

// playersMade numbers the players objects, for their addresses.
var playersMade atomic.Int64

func newPlayers(t testing.TB, base string, in *inbox) *players {
	return &players{t: t, tag: fmt.Sprintf("p%d", playersMade.Add(1)), base: base, in: in, status: map[int]int{},
		http: &http.Client{Timeout: 10 * time.Second}}
}

// run plays with n concurrent players until ctx ends, and returns a
// function that waits for them.
func (p *players) run(ctx context.Context, n int) (wait func()) {
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.player(ctx, w)
		}()
	}
	return wg.Wait
}

// player creates games one after another and plays each to its end.
func (p *players) player(ctx context.Context, w int) {
	rng := rand.New(rand.NewPCG(uint64(w), 7))
	for attempt := 0; ctx.Err() == nil; attempt++ {
		emails := []string{fmt.Sprintf("%s-w%d-g%d-a@example.org", p.tag, w, attempt),
			fmt.Sprintf("%s-w%d-g%d-b@example.org", p.tag, w, attempt)}
		body, _ := json.Marshal(map[string]any{"game": "lords-of-scotland", "language": "en",
			"organiser": map[string]string{"name": "Ann", "email": emails[0]},
			"players":   []map[string]string{{"name": "Ann", "email": emails[0]}, {"name": "Bob", "email": emails[1]}}})
		st, resp := p.do(ctx, "POST", "/api/v1/games", "", body, true, false)
		if st == http.StatusAccepted {
			resp, st = p.confirm(ctx, resp)
		}
		if st != http.StatusCreated {
			time.Sleep(100 * time.Millisecond)
			// No answer (or an error): the game may exist or not; start
			// afresh with new addresses rather than guess.
			continue
		}
		var created struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(resp, &created); err != nil {
			p.t.Errorf("create: %v: %s", err, resp)
			return
		}
		p.mu.Lock()
		p.games++
		p.mu.Unlock()
		tokens := make([]string, len(emails))
		for i, e := range emails {
			l, ok := p.in.link(p.t, e, 90*time.Second)
			if !ok {
				if ctx.Err() == nil {
					p.t.Errorf("no invitation for %s of game %s within 90 s", e, created.ID)
				}
				return
			}
			if l.game != created.ID {
				p.t.Errorf("invitation of %s is for game %s, created %s", e, l.game, created.ID)
				return
			}
			tokens[i] = l.token
		}
		p.play(ctx, w, created.ID, tokens, rng)
	}
}

// confirm confirms a proposed game (its 202 answer) as its organiser would
// with the emailed link, and returns the confirmation's answer and status.
func (p *players) confirm(ctx context.Context, proposed []byte) ([]byte, int) {
	var pr struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(proposed, &pr); err != nil || pr.ID == "" {
		return proposed, 0
	}
	st, resp := p.do(ctx, "POST", "/api/v1/confirm/"+tokens.Confirm([]byte(systestSecret), pr.ID), "", nil, true, false)
	return resp, st
}

// view is the part of a seat's view the players read.
type view struct {
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// play plays game id until it ends or ctx ends.
func (p *players) play(ctx context.Context, w int, id string, tokens []string, rng *rand.Rand) {
	for n := 0; ctx.Err() == nil; {
		moved := false
		for seat, tok := range tokens {
			st, body := p.do(ctx, "GET", "/api/v1/games/"+id+"/view", tok, nil, false, true)
			if st != http.StatusOK {
				if ctx.Err() == nil {
					p.t.Errorf("view of %s seat %d: %d %s", id, seat, st, body)
				}
				return
			}
			var v view
			if err := json.Unmarshal(body, &v); err != nil {
				p.t.Errorf("view: %v", err)
				return
			}
			if v.Status != "active" {
				p.mu.Lock()
				p.finished++
				p.mu.Unlock()
				return
			}
			if len(v.LegalMoves) == 0 {
				continue
			}
			n++
			key := fmt.Sprintf("w%d-%s-%d", w, id, n)
			mv, _ := json.Marshal(map[string]any{"version": v.Version, "move": v.LegalMoves[rng.IntN(len(v.LegalMoves))], "id": key})
			st, body = p.do(ctx, "POST", "/api/v1/games/"+id+"/moves", tok, mv, true, true)
			switch st {
			case http.StatusOK:
				p.mu.Lock()
				p.acked = append(p.acked, ackedMove{game: id, seat: seat, key: key, at: time.Now()})
				p.mu.Unlock()
				moved = true
			case http.StatusConflict:
				// Reload and try again.
			case 0:
				return // ctx ended
			default:
				p.t.Errorf("move of %s seat %d: %d %s", id, seat, st, body)
				return
			}
		}
		if !moved {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// do sends a request until it gets an answer that is not a 5xx, or ctx
// ends (status 0); without retry, it sends it once (status 0: no answer).
// Every answer and failure is counted.
func (p *players) do(ctx context.Context, method, path, token string, body []byte, write, retry bool) (int, []byte) {
	for ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, method, p.base+path, bytes.NewReader(body))
		if err != nil {
			p.t.Errorf("request: %v", err)
			return 0, nil
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		sent := time.Now()
		resp, err := p.http.Do(req)
		var b []byte
		st := 0
		if err == nil {
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				st = resp.StatusCode
			}
		}
		if ctx.Err() != nil {
			return 0, nil
		}
		p.mu.Lock()
		if st == 0 {
			p.transport++
		} else {
			p.status[st]++
		}
		p.log = append(p.log, event{sent: sent, at: time.Now(), status: st, write: write})
		p.mu.Unlock()
		if st != 0 && st < 500 {
			return st, b
		}
		if !retry {
			return st, b
		}
		time.Sleep(50 * time.Millisecond)
	}
	return 0, nil
}

// ackedMoves returns a copy of the acknowledged moves.
func (p *players) ackedMoves() []ackedMove {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ackedMove(nil), p.acked...)
}
