package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/tokens"
	ppg "pbem/projections/postgres"
)

// createGames creates one four-player game of each name in the database,
// through the game service (as a confirmed proposal would), and returns
// their ids.
func createGames(ctx context.Context, dbURL string, secret []byte, names []string) ([]string, error) {
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	store := evpg.New(pool)
	defer store.Close()
	lg, err := lords.New()
	if err != nil {
		return nil, err
	}
	svc := play.New(play.Config{Games: engine.NewRegistry(lg, bagpipes.Game{}), Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	var ids []string
	for _, name := range names {
		req := play.CreateGame{Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Game: name, Language: "en"}
		for _, p := range []string{"Ann", "Bob", "Cid", "Dee"} {
			req.Players = append(req.Players, play.NewPlayer{Name: p, Email: strings.ToLower(p) + "@example.org"})
		}
		cg, err := svc.Create(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", name, err)
		}
		ids = append(ids, cg.ID)
	}
	return ids, nil
}

// server is a `pbem serve` process on a loopback port.
type server struct {
	url    string
	secret []byte
	cmd    *exec.Cmd
	http   *http.Client
}

// startServer runs bin (pbem) serve on dbURL with the dev mailbox, and
// waits until /healthz answers.
func startServer(ctx context.Context, bin, dbURL string, secret []byte, dataDir string, logTo io.Writer) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	s := &server{url: "http://" + addr, secret: secret, http: &http.Client{Timeout: 30 * time.Second}}
	s.cmd = exec.CommandContext(ctx, bin, "serve")
	s.cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "PBEM_LISTEN="+addr, "PBEM_PUBLIC_URL="+s.url,
		"PBEM_SECRET="+string(secret), "PBEM_DATA="+dataDir, "PBEM_SMTP_URL=", "PBEM_INBOUND_LISTEN=")
	s.cmd.Stdout, s.cmd.Stderr = logTo, logTo
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := s.http.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
	}
	s.stop()
	return nil, errors.New("pbem serve did not answer /healthz within 60 s")
}

// stop ends the server (SIGINT: it shuts down cleanly) and waits.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// playLink is seat's play link (the first token generation).
func (s *server) playLink(id string, seat int) string {
	return s.url + "/play/" + id + "?token=" + tokens.Seat(s.secret, id, seat, 0)
}

// seatView is what the bench reads of a seat's view.
type seatView struct {
	Version    int64             `json:"version"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// summary is what the bench reads of a game's summary.
type summary struct {
	ToMove []int  `json:"to_move"`
	Status string `json:"status"`
}

// toMove is the seat the game waits for (-1: none).
func (s *server) toMove(ctx context.Context, id string) (int, error) {
	var sm summary
	if err := s.call(ctx, http.MethodGet, "/api/v1/games/"+id, "", nil, &sm); err != nil {
		return -1, err
	}
	if len(sm.ToMove) == 0 {
		return -1, nil
	}
	return sm.ToMove[0], nil
}

// play makes n moves through the REST API, each the seat to move's
// legal move number pick(len) — as players would through their pages.
func (s *server) play(ctx context.Context, id string, n int, pick func(int) int) error {
	for range n {
		seat, err := s.toMove(ctx, id)
		if err != nil || seat < 0 {
			return err
		}
		tok := tokens.Seat(s.secret, id, seat, 0)
		var v seatView
		if err := s.call(ctx, http.MethodGet, "/api/v1/games/"+id+"/view", tok, nil, &v); err != nil {
			return err
		}
		if len(v.LegalMoves) == 0 {
			return fmt.Errorf("seat %d to move has no legal move", seat)
		}
		body := map[string]any{"version": v.Version, "move": v.LegalMoves[pick(len(v.LegalMoves))]}
		if err := s.call(ctx, http.MethodPost, "/api/v1/games/"+id+"/moves", tok, body, nil); err != nil {
			return err
		}
	}
	return nil
}

// call sends a JSON request and decodes the answer into out (if not nil).
func (s *server) call(ctx context.Context, method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}
