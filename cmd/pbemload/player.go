package main

import (
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"pbem/events/tokens"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// player is one player goroutine: its session, its random choices, what it
// keeps of the game it plays (reused from move to move), and its counts.
type player struct {
	s   session
	rng *mrand.Rand

	id                          string   // the game played
	summary, viewPath, movePath string   // its URL paths
	tokens                      []string // its seat tokens, by seat ("": not derived yet)
	view                        view     // the last view or summary read
	dec                         viewDecoder
	has                         bool   // view holds the game's current view (else: read the summary)
	body                        []byte // the move being posted

	ids              []string        // the games it created
	moves, conflicts int             // accepted moves, and moves refused as stale
	lat              []time.Duration // the accepted moves' latencies
	viewLat          []time.Duration // the seat views' latencies
}

// playWhile creates and plays games while more says so, counting each
// accepted move in made too (shared by the players).
func (p *player) playWhile(more func() bool, made *atomic.Int64) error {
	for more() {
		id, err := p.s.newGame()
		if err != nil {
			return err
		}
		p.ids = append(p.ids, id)
		p.start(id)
		for more() {
			done, conflict, took, err := p.step()
			if err != nil {
				return err
			}
			if conflict {
				p.conflicts++
				continue
			}
			if done {
				break
			}
			p.moves++
			made.Add(1)
			p.lat = append(p.lat, took)
		}
	}
	return nil
}

// start makes the player play game id from its next step.
func (p *player) start(id string) {
	p.id, p.has = id, false
	p.summary = "/api/v1/games/" + id
	p.viewPath, p.movePath = p.summary+"/view", p.summary+"/moves"
	seats := p.s.lc.seats
	p.tokens = slices.Grow(p.tokens[:0], seats)[:seats]
	clear(p.tokens)
}

// token returns the play-link token of seat.
func (p *player) token(seat int) string {
	if seat < 0 || seat >= len(p.tokens) {
		return tokens.Seat(p.s.lc.secret, p.id, seat, 0)
	}
	if p.tokens[seat] == "" {
		p.tokens[seat] = tokens.Seat(p.s.lc.secret, p.id, seat, 0)
	}
	return p.tokens[seat]
}

// step plays one random legal move of the player's game, as a client that
// keeps the answer of its last move: it reads a view only when another
// seat is to move (or after a conflict, the summary first). done: the
// game is over. conflict: the move was refused as stale.
func (p *player) step() (done, conflict bool, took time.Duration, err error) {
	cur := &p.view
	if !p.has {
		st, body, err := p.s.do("GET", p.summary, "", nil)
		if err != nil {
			return false, false, 0, err
		}
		if st != http.StatusOK {
			return false, false, 0, fmt.Errorf("GET %s: status %d", p.summary, st)
		}
		if err := p.dec.decode(cur, body); err != nil {
			return false, false, 0, fmt.Errorf("GET %s: %w", p.summary, err)
		}
		cur.Seat = -1 // a summary is no seat's view
		p.has = true
	}
	if cur.Status != "active" || len(cur.ToMove) == 0 {
		return true, false, 0, nil
	}
	seat := cur.ToMove[p.rng.IntN(len(cur.ToMove))]
	tok := p.token(seat)
	if seat != cur.Seat {
		t0 := time.Now()
		st, body, err := p.s.do("GET", p.viewPath, tok, nil)
		p.viewLat = append(p.viewLat, time.Since(t0))
		if err == nil && st == http.StatusOK {
			if err = p.dec.decode(cur, body); err != nil {
				err = fmt.Errorf("GET %s: %w", p.viewPath, err)
			}
		}
		if err != nil || st != http.StatusOK {
			p.has = false
			return false, false, 0, fmt.Errorf("view: %d %v", st, err)
		}
	}
	if len(cur.LegalMoves) == 0 {
		return false, false, 0, fmt.Errorf("game %s seat %d has no legal move", p.id, seat)
	}
	// The move is sent as the view listed it (the server checks it).
	p.body = strconv.AppendInt(append(p.body[:0], `{"version":`...), cur.Version, 10)
	p.body = append(append(p.body, `,"move":`...), cur.LegalMoves[p.rng.IntN(len(cur.LegalMoves))]...)
	p.body = append(p.body, '}')
	t0 := time.Now()
	st, body, err := p.s.do("POST", p.movePath, tok, p.body)
	took = time.Since(t0)
	p.has = false
	if err != nil {
		return false, false, 0, err
	}
	switch st {
	case http.StatusOK:
		if err := p.dec.decode(cur, body); err != nil {
			return false, false, 0, fmt.Errorf("POST %s: %w", p.movePath, err)
		}
		p.has = true
		return false, false, took, nil
	case http.StatusConflict:
		return false, true, took, nil
	}
	return false, false, 0, fmt.Errorf("move in %s: status %d: %.200s", p.id, st, body)
}
