package main

import (
	"context"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/game"
)

// loadClient plays games over HTTP.
type loadClient struct {
	addr       string // host:port of the API
	secret     []byte
	game       string
	seats      int
	createBody []byte // the body of POST /api/v1/games, the same for every game
}

var loadNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

// newLoadClient returns a client of the API at addr that plays game with
// seats players.
func newLoadClient(addr string, secret []byte, game string, seats int) (*loadClient, error) {
	var players []map[string]string
	for i := range seats {
		players = append(players, map[string]string{"name": loadNames[i%len(loadNames)] + fmt.Sprint(i), "email": fmt.Sprintf("p%d@example.org", i)})
	}
	body, err := json.Marshal(map[string]any{"game": game, "players": players,
		"organiser": map[string]string{"name": "Load", "email": "load@example.org"}})
	if err != nil {
		return nil, err
	}
	return &loadClient{addr: addr, secret: secret, game: game, seats: seats, createBody: body}, nil
}

type playResult struct {
	moves, games, conflicts int
	elapsed                 time.Duration
	lat                     []time.Duration
}

func (r *playResult) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(p * float64(len(r.lat)-1))
	return r.lat[i]
}

// play runs n players for d, each on its own games.
func (lt *loadClient) play(ctx context.Context, n int, d time.Duration) (*playResult, error) {
	res := &playResult{}
	var mu sync.Mutex
	var firstErr error
	start := time.Now()
	stop := start.Add(d)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &loadPlayer{lt: lt, conn: newLoadConn(lt.addr), rng: mrand.New(mrand.NewPCG(uint64(w), 1))}
			defer p.conn.Close()
			var lat []time.Duration
			moves, games, conflicts := 0, 0, 0
			err := func() error {
				for time.Now().Before(stop) {
					id, err := lt.newGame(p.conn)
					if err != nil {
						return err
					}
					games++
					p.start(id)
					for time.Now().Before(stop) {
						done, conflict, took, err := p.step()
						if err != nil {
							return err
						}
						if conflict {
							conflicts++
							continue
						}
						if done {
							break
						}
						moves++
						lat = append(lat, took)
					}
				}
				return nil
			}()
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			res.moves += moves
			res.games += games
			res.conflicts += conflicts
			res.lat = append(res.lat, lat...)
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	slices.Sort(res.lat)
	return res, firstErr
}

// newGame proposes a game over c, confirms it as its organiser would
// (the client knows the secret the emailed link derives from), and
// returns its id.
func (lt *loadClient) newGame(c *loadConn) (string, error) {
	st, body, err := c.do("POST", "/api/v1/games", "", lt.createBody)
	if err != nil {
		return "", err
	}
	if st != http.StatusAccepted {
		return "", fmt.Errorf("loadtest: create: status %d", st)
	}
	id, err := jsonStringField(body, "id")
	if err != nil {
		return "", fmt.Errorf("loadtest: create: %w", err)
	}
	if st, _, err = c.do("POST", "/api/v1/confirm/"+game.ConfirmToken(lt.secret, id), "", nil); err != nil {
		return "", err
	}
	if st != http.StatusCreated {
		return "", fmt.Errorf("loadtest: confirm: status %d", st)
	}
	return id, nil
}

// createMany creates count games from n goroutines.
func (lt *loadClient) createMany(ctx context.Context, n, count int) error {
	conns := lt.conns(n)
	defer closeAll(conns)
	return parallel(ctx, n, count, func(w, _ int) error {
		_, err := lt.newGame(conns[w])
		return err
	})
}

// conns returns n clients of the API, one per worker.
func (lt *loadClient) conns(n int) []*loadConn {
	cs := make([]*loadConn, n)
	for i := range cs {
		cs[i] = newLoadConn(lt.addr)
	}
	return cs
}

func closeAll(cs []*loadConn) {
	for _, c := range cs {
		c.Close()
	}
}

// parallel runs job(w, 0..count-1) on n goroutines (w: the goroutine's
// number, 0..n-1) until all are done, one fails (its error is returned,
// and the others stop taking jobs) or ctx ends.
func parallel(ctx context.Context, n, count int, job func(w, i int) error) error {
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(count) && ctx.Err() == nil && firstErr.Load() == nil; i = next.Add(1) - 1 {
				if err := job(w, int(i)); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return err
	}
	return ctx.Err()
}

// readAll reads every game's summary and seat 0's view over HTTP, from n
// goroutines.
func (lt *loadClient) readAll(ctx context.Context, pool *pgxpool.Pool, n int) error {
	rows, err := pool.Query(ctx, `SELECT id FROM games`)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	conns := lt.conns(n)
	defer closeAll(conns)
	return parallel(ctx, n, len(ids), func(w, i int) error {
		id, c := ids[i], conns[w]
		if st, _, err := c.do("GET", "/api/v1/games/"+id, "", nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: summary of %s: %d %v", id, st, err)
		}
		if st, _, err := c.do("GET", "/api/v1/games/"+id+"/view", game.SeatToken(lt.secret, id, 0, 0), nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: view of %s: %d %v", id, st, err)
		}
		return nil
	})
}

// loadPlayer is one player goroutine: its connection, its random choices,
// and what it keeps of the game it plays, reused from move to move.
type loadPlayer struct {
	lt   *loadClient
	conn *loadConn
	rng  *mrand.Rand

	id                         string   // the game played
	summary, viewPath, mvsPath string   // its URL paths
	tokens                     []string // its seat tokens, by seat ("": not derived yet)
	view                       loadView // the last view or summary read
	has                        bool     // view holds the game's current view (else: read the summary)
	body                       []byte   // the move being posted
}

// start makes the player play game id from its next step.
func (p *loadPlayer) start(id string) {
	p.id, p.has = id, false
	p.summary = "/api/v1/games/" + id
	p.viewPath, p.mvsPath = p.summary+"/view", p.summary+"/moves"
	p.tokens = slices.Grow(p.tokens[:0], p.lt.seats)[:p.lt.seats]
	clear(p.tokens)
}

// token returns the play-link token of seat.
func (p *loadPlayer) token(seat int) string {
	if seat >= 0 && seat < len(p.tokens) {
		if p.tokens[seat] == "" {
			p.tokens[seat] = game.SeatToken(p.lt.secret, p.id, seat, 0)
		}
		return p.tokens[seat]
	}
	return game.SeatToken(p.lt.secret, p.id, seat, 0)
}

// step plays one random legal move of the player's game, as a client that
// keeps the answer of its last move: it reads a view only when another
// seat is to move (or after a conflict, the summary first). done: the
// game is over. conflict: the move was refused as stale.
func (p *loadPlayer) step() (done, conflict bool, took time.Duration, err error) {
	cur := &p.view
	if !p.has {
		cur.reset()
		cur.Seat = -1
		st, body, err := p.conn.do("GET", p.summary, "", nil)
		if err != nil {
			return false, false, 0, err
		}
		if st < 300 {
			if err := cur.decode(body); err != nil {
				return false, false, 0, fmt.Errorf("loadtest: GET %s: %w", p.summary, err)
			}
		}
		cur.Seat = -1
		p.has = true
	}
	if cur.Status != "active" || len(cur.ToMove) == 0 {
		return true, false, 0, nil
	}
	seat := cur.ToMove[p.rng.IntN(len(cur.ToMove))]
	tok := p.token(seat)
	if seat != cur.Seat {
		cur.reset()
		st, body, err := p.conn.do("GET", p.viewPath, tok, nil)
		if err == nil && st < 300 {
			if err = cur.decode(body); err != nil {
				err = fmt.Errorf("loadtest: GET %s: %w", p.viewPath, err)
			}
		}
		if err != nil || st != 200 {
			p.has = false
			return false, false, 0, fmt.Errorf("loadtest: view: %d %v", st, err)
		}
	}
	if len(cur.LegalMoves) == 0 {
		return false, false, 0, fmt.Errorf("loadtest: game %s seat %d has no legal move", p.id, seat)
	}
	// The move is sent as the view listed it (the server checks it).
	p.body = strconv.AppendInt(append(p.body[:0], `{"version":`...), cur.Version, 10)
	p.body = append(append(p.body, `,"move":`...), cur.LegalMoves[p.rng.IntN(len(cur.LegalMoves))]...)
	p.body = append(p.body, '}')
	t0 := time.Now()
	st, body, err := p.conn.do("POST", p.mvsPath, tok, p.body)
	took = time.Since(t0)
	p.has = false
	if err != nil {
		return false, false, 0, err
	}
	switch st {
	case http.StatusOK:
		cur.reset()
		if err := cur.decode(body); err != nil {
			return false, false, 0, fmt.Errorf("loadtest: POST %s: %w", p.mvsPath, err)
		}
		p.has = true
		return false, false, took, nil
	case http.StatusConflict:
		return false, true, took, nil
	}
	return false, false, 0, fmt.Errorf("loadtest: move in %s: status %d", p.id, st)
}
