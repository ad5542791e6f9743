package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"pbem/events/tokens"
	"sync"
	"sync/atomic"
	"time"
)

// loadClient plays games on pbem's API over HTTP, with one keep-alive
// http.Client shared by every player goroutine.
type loadClient struct {
	http       *http.Client
	base       string // the API's URL, http://host:port
	secret     []byte // the server's secret, from which the seat tokens derive
	game       string
	seats      int
	createBody []byte // the body of POST /api/v1/games, the same for every game

	mu  sync.Mutex
	ids []string // every game created, for the memory figure
}

var loadNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

// maxBody bounds a response body, so that a broken server gives an error,
// not an exhausted memory.
const maxBody = 64 << 20

// newLoadClient returns a client of the API at base that plays game with
// seats players per game, for up to players goroutines at once.
func newLoadClient(base string, secret []byte, game string, seats, players int) (*loadClient, error) {
	var names []map[string]string
	for i := range seats {
		names = append(names, map[string]string{"name": loadNames[i%len(loadNames)] + fmt.Sprint(i), "email": fmt.Sprintf("p%d@example.org", i)})
	}
	body, err := json.Marshal(map[string]any{"game": game, "players": names,
		"organiser": map[string]string{"name": "Load", "email": "load@example.org"}})
	if err != nil {
		return nil, err
	}
	return &loadClient{http: newHTTPClient(players), base: base, secret: secret, game: game, seats: seats, createBody: body}, nil
}

// newHTTPClient returns a client for players goroutines that each have one
// request in flight: the transport keeps a connection per player between
// requests (its default keeps 2 per host, and the others would be closed
// and dialled again at every request). No proxy and no compression: the
// server is on loopback.
func newHTTPClient(players int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        players,
		MaxIdleConnsPerHost: players,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}}
}

// close closes the idle connections.
func (lc *loadClient) close() { lc.http.CloseIdleConnections() }

// session is one goroutine's use of a loadClient: its requests, one at a
// time, read into a buffer it reuses.
type session struct {
	lc   *loadClient
	ctx  context.Context
	body bytes.Buffer
}

// do sends a request and returns the response's status and body. A body
// (JSON) is sent with Content-Type application/json; token, when not
// empty, as Authorization: Bearer. The returned body is valid until the
// next call. Any status is returned as is: checking it is the caller's job.
func (s *session) do(method, path, token string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(s.ctx, method, s.lc.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.lc.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	s.body.Reset()
	n, err := s.body.ReadFrom(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if n > maxBody {
		return 0, nil, fmt.Errorf("%s %s: body over %d bytes", method, path, maxBody)
	}
	return resp.StatusCode, s.body.Bytes(), nil
}

// newGame proposes a game, confirms it as its organiser would (the client
// knows the secret the emailed link derives from), and returns its id.
func (s *session) newGame() (string, error) {
	st, body, err := s.do("POST", "/api/v1/games", "", s.lc.createBody)
	if err != nil {
		return "", err
	}
	if st != http.StatusAccepted {
		return "", fmt.Errorf("create: status %d: %.200s", st, body)
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &created); err != nil {
		return "", fmt.Errorf("create: %w", err)
	}
	if created.ID == "" {
		return "", fmt.Errorf("create: no id in %.200s", body)
	}
	st, body, err = s.do("POST", "/api/v1/confirm/"+tokens.Confirm(s.lc.secret, created.ID), "", nil)
	if err != nil {
		return "", err
	}
	if st != http.StatusCreated {
		return "", fmt.Errorf("confirm: status %d: %.200s", st, body)
	}
	return created.ID, nil
}

// createMany creates count games from n goroutines.
func (lc *loadClient) createMany(ctx context.Context, n, count int) error {
	ids := make([]string, count)
	err := lc.parallel(ctx, n, count, func(s *session, i int) error {
		id, err := s.newGame()
		ids[i] = id
		return err
	})
	lc.record(ids)
	return err
}

// record remembers created games.
func (lc *loadClient) record(ids []string) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	for _, id := range ids {
		if id != "" {
			lc.ids = append(lc.ids, id)
		}
	}
}

// readAll reads every game created so far, its summary and seat 0's view,
// from n goroutines, and returns how many are active.
func (lc *loadClient) readAll(ctx context.Context, n int) (int, error) {
	lc.mu.Lock()
	ids := lc.ids
	lc.mu.Unlock()
	var active atomic.Int64
	err := lc.parallel(ctx, n, len(ids), func(s *session, i int) error {
		id := ids[i]
		st, body, err := s.do("GET", "/api/v1/games/"+id, "", nil)
		if err != nil || st != http.StatusOK {
			return fmt.Errorf("summary of %s: %d %v", id, st, err)
		}
		var summary struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(body, &summary); err != nil {
			return fmt.Errorf("summary of %s: %w", id, err)
		}
		if summary.Status == "active" {
			active.Add(1)
		}
		if st, _, err := s.do("GET", "/api/v1/games/"+id+"/view", tokens.Seat(lc.secret, id, 0, 0), nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("view of %s: %d %v", id, st, err)
		}
		return nil
	})
	return int(active.Load()), err
}

// parallel runs job(s, 0..count-1) on n goroutines, each with its own
// session, until all are done, one fails (its error is returned, and
// the others stop taking jobs) or ctx ends.
func (lc *loadClient) parallel(ctx context.Context, n, count int, job func(s *session, i int) error) error {
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			s := &session{lc: lc, ctx: ctx}
			for i := next.Add(1) - 1; i < int64(count) && ctx.Err() == nil && firstErr.Load() == nil; i = next.Add(1) - 1 {
				if err := job(s, int(i)); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return err
	}
	return ctx.Err()
}
