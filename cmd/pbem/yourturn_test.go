package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// yourTurnSecret is the secret of TestYourTurnEmailsAreTrue's server.
const yourTurnSecret = "pbem1-fc3a3b0479e6f904331e6f77711498a995c381eecfba302102ff2925cb045a12-0dd5994b"

// seatView is what the test reads of a seat's view.
type seatView struct {
	Version    int64 `json:"version"`
	Status     string
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// labels are the labels of the view's legal moves.
func (v seatView) labels() []string {
	out := make([]string, len(v.LegalMoves))
	for i, m := range v.LegalMoves {
		var l struct {
			Label string `json:"label"`
		}
		_ = json.Unmarshal(m, &l)
		out[i] = l.Label
	}
	return out
}

// arrival is the person's view at the moment an email reached the SMTP
// server (before the server accepted it).
type arrival struct {
	known bool // the person's token was known
	view  seatView
}

// TestYourTurnEmailsAreTrue plays, against the real server over real SMTP,
// a person against two bots that answer at once (PBEM_BOT_DELAY=0s,
// PBEM_DECISION_PAUSE=0s) with a
// grace of 2 s (PBEM_MAIL_GRACE=2s). The person waits for the email of one
// turn and answers the next at once on the page, in turn. Each email that
// asks a move (a your-turn email, or the round-end email of a turn a
// round's end gives) is checked against the person's view taken when the
// email reached the SMTP server: the person is awaited and the email
// lists exactly the moves the page lists (none is stale when it arrives),
// and no turn of the person gets two.
func TestYourTurnEmailsAreTrue(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"lords-of-scotland", "swords-and-bagpipes"} {
		t.Run(name, func(t *testing.T) { yourTurnEmails(t, name) })
	}
}

func yourTurnEmails(t *testing.T, gameName string) {
	var (
		mu       sync.Mutex
		base     string
		token    string
		gameID   string
		arrivals []arrival
	)
	view := func(tok string) (seatView, int) {
		var v seatView
		req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/games/"+gameID+"/view", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return v, 0
		}
		defer resp.Body.Close()
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return v, resp.StatusCode
	}
	sink := smtpsink.Start(t, smtpsink.Options{OnData: func(int) {
		mu.Lock()
		tok := token
		mu.Unlock()
		a := arrival{known: tok != ""}
		if a.known {
			a.view, _ = view(tok)
		}
		mu.Lock()
		arrivals = append(arrivals, a)
		mu.Unlock()
	}})
	dbURL := pgtest.NewEmptyDB(t)
	srv := startServe(t, []string{"DATABASE_URL=" + dbURL, "PBEM_DATA=" + t.TempDir(),
		"PBEM_SMTP_URL=smtp://" + sink.Addr() + "?tls=none", "PBEM_MAIL_FROM=pbem@example.org",
		"PBEM_REPLY_DOMAIN=reply.example.org", "PBEM_SECRET=" + yourTurnSecret,
		"PBEM_BOT_DELAY=0s", "PBEM_DECISION_PAUSE=0s", "PBEM_MAIL_GRACE=2s", "PBEM_MAIL_SENDERS=1"})
	base = srv.base

	var created struct {
		ID string `json:"id"`
	}
	call(t, http.MethodPost, base+"/api/v1/games", "", "", `{"game":"`+gameName+`","language":"en",
		"organiser":{"name":"Org","email":"org@example.org"},
		"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Rob","bot":"normal"},{"name":"Bea","bot":"easy"}]}`,
		http.StatusAccepted, &created)
	gameID = created.ID
	call(t, http.MethodPost, base+"/api/v1/confirm/"+tokens.Confirm([]byte(yourTurnSecret), gameID), "", "", "",
		http.StatusCreated, nil)

	// Ann's token, from her invitation.
	linkRE := regexp.MustCompile(`/play/` + gameID + `\?token=([A-Za-z0-9_%-]+)`)
	waitFor(t, 60*time.Second, "Ann's invitation", func() bool {
		for _, m := range sink.Messages() {
			p, err := smtpsink.Parse(m.Data)
			if err != nil || !slices.Contains(m.To, "ann@example.org") {
				continue
			}
			if sub := linkRE.FindStringSubmatch(p.Text); sub != nil {
				tok, _ := url.QueryUnescape(sub[1])
				mu.Lock()
				token = tok
				mu.Unlock()
				return true
			}
		}
		return false
	})

	// Ann plays ten turns (or the whole game): on odd turns she waits for
	// the turn's email, on even ones she plays as soon as the page lets
	// her. A turn lasts until a move of hers leaves her not awaited (a
	// Swords and Bagpipes turn is several moves).
	yourTurns := func() int { return len(yourTurnEmailsTo(t, sink, "ann@example.org")) }
	waited, seen := 0, 0 // seen: the your-turn emails that had come when Ann's last turn ended
	for turn := 0; turn < 10; turn++ {
		var v seatView
		waitFor(t, 60*time.Second, "Ann's turn or the end", func() bool {
			v, _ = view(token)
			return len(v.LegalMoves) > 0 || v.Status == "finished"
		})
		if v.Status == "finished" {
			break
		}
		if turn%2 == 1 { // (her first turn may be told by the invitation)
			waitFor(t, 60*time.Second, "the your-turn email of Ann's turn", func() bool { return yourTurns() > seen })
			waited++
		}
		for len(v.LegalMoves) > 0 {
			body, _ := json.Marshal(map[string]any{"version": v.Version, "move": v.LegalMoves[len(v.LegalMoves)-1]})
			req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/games/"+gameID+"/moves", strings.NewReader(string(body)))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode == http.StatusConflict {
				// A bot moved meanwhile (a simultaneous choice): as the
				// page does, read the view again and play from it.
				resp.Body.Close()
				v, _ = view(token)
				continue
			}
			v = seatView{}
			err = json.NewDecoder(resp.Body).Decode(&v)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || err != nil {
				t.Fatalf("Ann's move: %d %v", resp.StatusCode, err)
			}
		}
		seen = yourTurns()
	}

	// Wait until no email of the game is waiting: each was sent or dropped.
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	waitFor(t, 30*time.Second, "the outbox to settle", func() bool {
		var n int
		err := pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE game_id = $1 AND status = 'pending'`, gameID).Scan(&n)
		return err == nil && n == 0
	})

	msgs := sink.Messages()
	mu.Lock()
	got := slices.Clone(arrivals)
	mu.Unlock()
	if len(got) != len(msgs) {
		t.Fatalf("%d arrivals seen for %d messages", len(got), len(msgs))
	}
	perVersion := map[int64]int{}
	n := 0
	for i, m := range msgs {
		if !slices.Contains(m.To, "ann@example.org") {
			continue
		}
		e, ok := parseYourTurn(t, m)
		if !ok {
			continue
		}
		n++
		a := got[i]
		if !a.known || len(a.view.LegalMoves) == 0 {
			t.Errorf("your-turn email %d arrived while Ann was not awaited (view v%d)", i, a.view.Version)
			continue
		}
		if !slices.Equal(e.moves, a.view.labels()) {
			t.Errorf("your-turn email %d lists %q; when it arrived the page listed %q", i, e.moves, a.view.labels())
		}
		perVersion[a.view.Version]++
		if perVersion[a.view.Version] > 1 {
			t.Errorf("two your-turn emails for Ann's turn at v%d", a.view.Version)
		}
	}
	if n < waited {
		t.Errorf("%d your-turn emails for %d turns Ann waited for", n, waited)
	}
	t.Logf("%s: %d your-turn emails to Ann, %d emails in all", gameName, n, len(msgs))
}

// yourTurnEmail is a your-turn email as the test reads it.
type yourTurnEmail struct {
	moves []string // the numbered list, in order
}

var movesLineRE = regexp.MustCompile(`^(\d+)\. (.+)$`)

// parseYourTurn reads an email that asks a move: a your-turn email, or
// the round-end email to the seat a round's end gives the turn to, which
// asks as a your-turn email does (ok false for another kind).
func parseYourTurn(t *testing.T, m smtpsink.Received) (yourTurnEmail, bool) {
	var e yourTurnEmail
	p, err := smtpsink.Parse(m.Data)
	if err != nil {
		t.Errorf("unreadable email: %v", err)
		return e, false
	}
	if !strings.Contains(p.Text, "It is your turn in") && !strings.Contains(p.Text, "Now it is your turn.") {
		return e, false
	}
	in := false
	for _, l := range strings.Split(strings.ReplaceAll(p.Text, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, "Your moves.") {
			in = true
			continue
		}
		if sub := movesLineRE.FindStringSubmatch(l); in && sub != nil {
			e.moves = append(e.moves, sub[2])
		} else if in && len(e.moves) > 0 {
			break
		}
	}
	return e, true
}

// yourTurnEmailsTo lists the your-turn emails sent to addr so far.
func yourTurnEmailsTo(t *testing.T, sink *smtpsink.Sink, addr string) []yourTurnEmail {
	var out []yourTurnEmail
	for _, m := range sink.Messages() {
		if !slices.Contains(m.To, addr) {
			continue
		}
		if e, ok := parseYourTurn(t, m); ok {
			out = append(out, e)
		}
	}
	return out
}

// waitFor polls cond until it holds, failing t after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
