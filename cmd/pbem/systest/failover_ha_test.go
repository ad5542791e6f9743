//go:build ha

package systest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// TestFailover plays under load against a pg_auto_failover formation
// through a multi-host DATABASE_URL, kills the primary (its keeper and its
// PostgreSQL, SIGKILL), and checks that the server carries on without a
// restart: writes resume within 30 s, requests during the switch answer 503
// (never 500), every acknowledged move is in the promoted database, the
// outbox worker and the deadline scheduler carry on, and `pbem verify --all`
// passes. Run it with `make test-ha`.
func TestFailover(t *testing.T) {
	start := time.Now()
	f := newFormation(t)
	if s := f.syncStandbys(t); !strings.Contains(s, "pgautofailover_standby") {
		t.Fatalf("synchronous_standby_names = %q: the standby is not synchronous", s)
	}
	t.Logf("formation up in %v", time.Since(start).Round(time.Second))
	sink := smtpsink.Start(t, smtpsink.Options{})
	env := []string{"DATABASE_URL=" + f.URL(), fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr()), "PBEM_MAIL_FROM=pbem@example.org",
		"PBEM_MAIL_LEASE=3s"}
	srv := newServer(t, env...)
	in := newInbox(sink)
	p := newPlayers(t, srv.base(), in)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := p.run(ctx, 6)

	time.Sleep(5 * time.Second)
	failedAt := time.Now()
	f.kill("node1")
	resumed := waitWrites(p, failedAt, 45*time.Second)
	if resumed.IsZero() {
		cancel()
		wait()
		t.Fatalf("no write succeeded within 45 s of the failover; answers %v, %d without answer", p.status, p.transport)
	}
	reminded := remindAfterFailover(t, srv.base(), f.URL(), in)
	time.Sleep(5 * time.Second)
	cancel()
	wait()

	acked := p.ackedMoves()
	var before []ackedMove
	for _, a := range acked {
		if a.at.Before(failedAt) {
			before = append(before, a)
		}
	}
	foundBefore := countAcked(t, f.URL(), before)
	found := countAcked(t, f.URL(), acked)
	if foundBefore != len(before) || found != len(acked) {
		t.Errorf("in the promoted database: %d of %d moves acknowledged before the failover, %d of %d in all",
			foundBefore, len(before), found, len(acked))
	}
	secs := resumed.Sub(failedAt).Seconds()
	if secs > 30 {
		t.Errorf("writes resumed %.1f s after the failover, want within 30 s", secs)
	}
	if p.status[http.StatusInternalServerError] > 0 {
		t.Errorf("%d answers 500 during the switch, want 503", p.status[http.StatusInternalServerError])
	}
	games := verifyAll(t, env)
	mail := checkMail(t, f.URL(), in, 60*time.Second)
	if mail.most > 2 {
		t.Errorf("an email arrived %d times after one failover: want at most one duplicate", mail.most)
	}
	if !reminded {
		t.Error("no reminder from the deadline scheduler after the failover")
	}
	t.Logf("acknowledged before the failover: %d, found after it: %d; in all %d acknowledged, %d found; "+
		"writes resumed %.1f s after the primary was killed; answers %v, %d without answer; "+
		"%d games verified; %d emails due, %d received (%d duplicates); %v",
		len(before), foundBefore, len(acked), found, secs, p.status, p.transport, games,
		mail.rows, mail.received, mail.duplicates, time.Since(start).Round(time.Second))
}

// waitWrites returns when the first write sent after since succeeded, or
// the zero time when none did within d.
func waitWrites(p *players, since time.Time, d time.Duration) time.Time {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		for _, e := range p.events() {
			if e.write && e.sent.After(since) && e.status >= 200 && e.status < 300 {
				return e.at
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Time{}
}

// remindAfterFailover creates a game whose reminder is due two seconds
// later and reports whether the deadline scheduler, running on the promoted
// database, had its reminder sent within 40 s.
func remindAfterFailover(t *testing.T, base, dbURL string, in *inbox) bool {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"game": "lords-of-scotland", "language": "en",
		"turn_deadline": "1m", "reminder_before": "58s", "organiser": map[string]string{"name": "Ann", "email": "late-a@example.org"},
		"players": []map[string]string{{"name": "Ann", "email": "late-a@example.org"}, {"name": "Bob", "email": "late-b@example.org"}}})
	var created struct {
		ID string `json:"id"`
	}
	// A client retries a 503 (after its Retry-After); a new game has no
	// idempotency key, so a retry after no answer could create two games,
	// which this check would not mind.
	for deadline := time.Now().Add(30 * time.Second); created.ID == ""; time.Sleep(500 * time.Millisecond) {
		resp, err := http.Post(base+"/api/v1/games", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		st := resp.StatusCode
		err = json.NewDecoder(resp.Body).Decode(&created)
		resp.Body.Close()
		if st == http.StatusAccepted && err == nil {
			// Confirm as the organiser would, with the emailed link.
			resp, err = http.Post(base+"/api/v1/confirm/"+tokens.Confirm([]byte(systestSecret), created.ID), "application/json", nil)
			if err != nil {
				t.Fatal(err)
			}
			st = resp.StatusCode
			err = json.NewDecoder(resp.Body).Decode(&created)
			resp.Body.Close()
		}
		switch {
		case st == http.StatusCreated && err == nil:
		case st == http.StatusServiceUnavailable && time.Now().Before(deadline):
			created.ID = ""
		default:
			t.Fatalf("create after the failover: %d %v", st, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if reminderSent(ctx, t, dbURL, created.ID, in) {
			return true
		}
		time.Sleep(500 * time.Millisecond)
	}
	return false
}

// outboxIDRE finds the outbox row id in a Message-ID (<outbox-ID.GAME@HOST>;
// a seat's first invitation has its thread's root instead, seat-N.GAME@HOST).
var outboxIDRE = regexp.MustCompile(`^outbox-(\d+)\.`)

// reminderSent reports whether the reminder of game id, an outbox row the
// scheduler writes, reached the sink.
func reminderSent(ctx context.Context, t *testing.T, dbURL, id string, in *inbox) bool {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return false
	}
	defer conn.Close(ctx)
	var ids []int64
	rows, err := conn.Query(ctx, `SELECT id FROM outbox WHERE game_id = $1 AND kind = 'reminder'`, id)
	if err != nil {
		return false
	}
	if ids, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
		return false
	}
	for mid := range in.copies(t) {
		sm := outboxIDRE.FindStringSubmatch(mid)
		if sm == nil {
			continue
		}
		if id, err := strconv.ParseInt(sm[1], 10, 64); err == nil && slices.Contains(ids, id) {
			return true
		}
	}
	return false
}

// events returns a copy of the request log.
func (p *players) events() []event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]event(nil), p.log...)
}
