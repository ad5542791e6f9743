package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	netmail "net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/emersion/go-smtp"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/postfixtest"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// TestPostfixBetweenPbemAndMailboxes puts Debian's Postfix, set up as
// docs/operating.md's "Postfix in front of pbem" says, between `pbem serve` and the players'
// mailboxes, and checks what the operator saw go wrong:
//
//   - every kind of email arrives with a DKIM signature that verifies
//     against the record pbem printed (zone-file text, split strings);
//   - moves are played by replies submitted with Postfix's sendmail, one
//     with raw UTF-8 in its From and Subject (Postfix passes it on only
//     because the listener offers SMTPUTF8);
//   - a forged reply address is refused at RCPT by Postfix (a probe to
//     pbem's listener), and nothing bounces to the claimed sender;
//   - an invitation to an unknown user is bounced by Postfix after it
//     accepted it; pbem reads the bounce and the organiser sees the
//     address in the failed emails (API and admin page);
//   - a reply held by Postfix while pbem was down is played as soon as
//     the queue is flushed after pbem restarts.
//
// It logs the time from sendmail to the move being played.
func TestPostfixBetweenPbemAndMailboxes(t *testing.T) {
	listener := postfixtest.FreePort(t)
	pf := postfixtest.Start(t, postfixtest.Options{ReplyDomain: "reply.test", Listener: listener,
		Mailboxes: []string{"org", "ann", "bob", "cat", "kinds"}})
	keyPath := writeRSAKey(t)
	const secret = testServeSecret
	env := []string{"DATABASE_URL=" + pgtest.NewEmptyDB(t), "PBEM_DATA=" + t.TempDir(),
		"PBEM_SMTP_URL=smtp://" + pf.Submit + "?tls=none", "PBEM_PUBLIC_URL=https://games.test",
		"PBEM_MAIL_FROM=pbem@games.test", "PBEM_INBOUND_LISTEN=" + listener, "PBEM_REPLY_DOMAIN=reply.test",
		"PBEM_DKIM_KEY=" + keyPath, "PBEM_DKIM_SELECTOR=pbem1", "PBEM_DKIM_DOMAIN=games.test",
		"PBEM_SECRET=" + secret, "PBEM_MAIL_GRACE=0s"}
	srv := startServe(t, env)
	record := printedDKIM(t, srv.stdout.String())

	// Two games: A (Ann and Bob) is played by replies; B's second player
	// has no mailbox.
	gameA := createGame(t, srv.base, secret, "ann", "bob")
	gameB := createGame(t, srv.base, secret, "cat", "gone")

	// The unknown user: Postfix accepts the invitation, bounces it to the
	// reply address (pbem's envelope sender), pbem marks the email.
	start := time.Now()
	admin := tokens.Admin([]byte(secret), gameB, 0)
	var failed []notify.FailedEmail
	for deadline := time.Now().Add(60 * time.Second); ; {
		var list struct {
			Failed []notify.FailedEmail `json:"failed"`
		}
		call(t, http.MethodGet, srv.base+"/api/v1/games/"+gameB+"/admin/failed-emails", admin, "", "", http.StatusOK, &list)
		failed = list.Failed
		if len(failed) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(failed) != 1 || failed[0].To != "gone@players.test" || !strings.HasPrefix(failed[0].LastError, "bounced: status 5.1.1") {
		t.Fatalf("failed emails of game B: %+v\npostfix log:\n%s\npbem log:\n%s", failed, pf.Log(), srv.stderr.String())
	}
	t.Logf("bounce recorded %v after the game started: %s", time.Since(start).Round(time.Millisecond), failed[0].LastError)
	if page := adminPage(t, srv.base, gameB, admin); !strings.Contains(page, "gone@players.test") || !strings.Contains(page, "5.1.1") {
		t.Errorf("the admin page does not show the bounced address:\n%s", page)
	}

	// Moves by replies through Postfix's sendmail.
	p := &players{t: t, pf: pf, base: srv.base, game: gameA}
	p.learnTokens()
	plain := func(name, addr, subject string) string {
		return "From: " + name + " <" + addr + ">\nSubject: Re: " + subject + "\n" +
			"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
	}
	p.replyAndWait("plain", func(subject string) (string, string) { return plain("Ann Player", "", subject), "1\n" })
	p.replyAndWait("UTF-8 headers", func(subject string) (string, string) {
		return plain("Élodie Dupré", "", "À vous de jouer — "+subject), "1\n\nEnvoyé de mon téléphone\n"
	})
	if !strings.Contains(pf.Log(), "relay=127.0.0.1[127.0.0.1]") {
		t.Errorf("Postfix's log shows no delivery to pbem:\n%s", pf.Log())
	}

	// A forged reply address, from the internet: Postfix probes pbem and
	// refuses it at RCPT; a real one is accepted.
	forged := notify.ReplyAddress{GameID: gameA, Seat: 0, Choice: notify.NoChoice, Tag: "forgedforgedforged"}.String("reply.test")
	c, err := smtp.Dial(pf.MX)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hello("mx.elsewhere.test"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("ann@players.test", nil); err != nil {
		t.Fatal(err)
	}
	var se *smtp.SMTPError
	if err := c.Rcpt(forged, nil); !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("RCPT of a forged reply address at the relay: %v, want 550", err)
	}
	if err := c.Rcpt(p.lastReplyTo, nil); err != nil {
		t.Errorf("RCPT of a real reply address at the relay: %v", err)
	}
	_ = c.Quit()
	if got := metricValue(scrape(t, srv.base), "pbem_inbound_refused_total", map[string]string{"reason": "invalid_secret"}); got < 1 {
		t.Errorf("pbem_inbound_refused_total{reason=invalid_secret} = %v after the relay's probe", got)
	}

	// A reply held by Postfix while pbem is down, played once the queue
	// is flushed after the restart.
	held, msg := p.composeReply("held while pbem was down", func(subject string) (string, string) { return plain("Ann", "", subject), "1\n" })
	srv.stop(t)
	held.sent = time.Now()
	pf.Sendmail(t, held.box+"@players.test", msg)
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(pf.Log(), "connect to 127.0.0.1["); {
		if time.Now().After(deadline) {
			t.Fatalf("Postfix did not try pbem while it was down:\n%s", pf.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
	srv = startServe(t, env)
	p.base = srv.base
	flushed := time.Now()
	pf.Flush(t)
	p.waitPlayed(held)
	t.Logf("held reply played %v after postqueue -f (%v after sendmail)", time.Since(flushed).Round(time.Millisecond),
		time.Since(held.sent).Round(time.Millisecond))

	// Every kind of email, rendered and signed by pbem's code, through
	// Postfix to a mailbox.
	sendEveryKind(t, pf, keyPath, secret)

	// Nothing in the queue, no bounce in any player's mailbox (no
	// backscatter), every email signed.
	if !pf.WaitQueueEmpty(t, 30*time.Second) {
		t.Errorf("Postfix's queue is not empty:\n%s", pf.Queue(t))
	}
	lookup := func(name string) ([]string, error) {
		if name != "pbem1._domainkey.games.test" {
			return nil, fmt.Errorf("no TXT record at %s", name)
		}
		return []string{record}, nil
	}
	total := 0
	for _, box := range []string{"org", "ann", "bob", "cat", "kinds"} {
		for _, m := range pf.Mailbox(box) {
			total++
			parsed, err := smtpsink.Parse(m)
			if err != nil {
				t.Fatalf("%s: %v", box, err)
			}
			if from := parsed.Header.Get("From"); strings.Contains(strings.ToLower(from), "mailer-daemon") {
				t.Errorf("%s got a bounce (backscatter): %s", box, parsed.Subject)
				continue
			}
			// pbem said EHLO with the public URL's host.
			if box != "kinds" && !strings.Contains(string(m), "Received: from games.test (") {
				t.Errorf("%s: %q came from another EHLO name than games.test", box, parsed.Subject)
			}
			vs, err := dkim.VerifyWithOptions(bytes.NewReader(m), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "games.test" {
				t.Errorf("%s: DKIM of %q: %v %+v", box, parsed.Subject, err, vs)
			}
		}
	}
	t.Logf("%d emails in the mailboxes, each with a DKIM signature that verifies", total)
	for _, l := range strings.Split(pf.Log(), "\n") {
		switch {
		case strings.Contains(l, "fatal:") || strings.Contains(l, "panic:"):
			t.Errorf("Postfix: %s", l)
		case strings.Contains(l, "warning:"):
			t.Logf("Postfix: %s", l)
		}
	}
}

// writeRSAKey writes a fresh 2048-bit RSA key (PKCS#8 PEM): its DKIM
// record is longer than one TXT string.
func writeRSAKey(t *testing.T) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dkim.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// printedDKIM reads the zone-file line serve printed and returns the TXT
// value its strings join into, checking each is at most 255 characters.
func printedDKIM(t *testing.T, stdout string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^pbem1\._domainkey\.games\.test\. IN TXT (.*)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("serve printed no DKIM record:\n%s", stdout)
	}
	var value string
	strs := regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(m[1], -1)
	for _, s := range strs {
		if len(s[1]) > 255 {
			t.Errorf("a TXT string of %d characters", len(s[1]))
		}
		value += s[1]
	}
	if len(strs) < 2 || !strings.HasPrefix(value, "v=DKIM1; k=rsa; p=") {
		t.Errorf("DKIM record %q", m[0])
	}
	return value
}

// createGame proposes and confirms a Lords of Scotland game organised by
// org@players.test between two players at players.test.
func createGame(t *testing.T, base, secret, a, b string) string {
	t.Helper()
	var created struct {
		ID string `json:"id"`
	}
	call(t, http.MethodPost, base+"/api/v1/games", "", "", `{"game":"lords-of-scotland","language":"fr",
		"organiser":{"name":"Org","email":"org@players.test"},
		"players":[{"name":"`+a+`","email":"`+a+`@players.test"},{"name":"`+b+`","email":"`+b+`@players.test"}]}`,
		http.StatusAccepted, &created)
	call(t, http.MethodPost, base+"/api/v1/confirm/"+tokens.Confirm([]byte(secret), created.ID), "", "", "",
		http.StatusCreated, nil)
	return created.ID
}

// adminPage reads the game's admin page as the organiser's link opens it.
func adminPage(t *testing.T, base, id, token string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar}
	resp, err := cl.Get(base + "/admin/" + id + "?token=" + url.QueryEscape(token))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /admin/%s: %d %s", id, resp.StatusCode, b)
	}
	return string(b)
}

// players plays game A by replies, as its two players' mail clients do.
type players struct {
	t           *testing.T
	pf          *postfixtest.Postfix
	base, game  string
	tokens      map[string]string // play-link token by mailbox
	seen        map[string]int    // messages of each mailbox already read
	lastReplyTo string            // the reply address last answered
}

// playLinkOf finds a seat's play-link token in an email.
var playLinkOf = regexp.MustCompile(`/play/([A-Za-z0-9_-]+)\?token=([^\s&"<>]+)`)

// learnTokens reads both players' invitations for their play links (the
// test's way to see the game's version).
func (p *players) learnTokens() {
	p.tokens, p.seen = map[string]string{}, map[string]int{}
	for _, box := range []string{"ann", "bob"} {
		msgs := p.pf.WaitMailbox(p.t, box, 1, 60*time.Second)
		for _, m := range msgs {
			pm, err := smtpsink.Parse(m)
			if err != nil {
				p.t.Fatal(err)
			}
			if sm := playLinkOf.FindStringSubmatch(pm.Text); sm != nil && sm[1] == p.game {
				tok, _ := url.QueryUnescape(sm[2])
				p.tokens[box] = tok
			}
		}
		if p.tokens[box] == "" {
			p.t.Fatalf("%s got no play link of game %s", box, p.game)
		}
	}
}

// view is a seat's version and legal moves.
func (p *players) view(box string) (int64, int) {
	var v struct {
		Version    int64             `json:"version"`
		LegalMoves []json.RawMessage `json:"legal_moves"`
	}
	call(p.t, http.MethodGet, p.base+"/api/v1/games/"+p.game+"/view", p.tokens[box], "", "", http.StatusOK, &v)
	return v.Version, len(v.LegalMoves)
}

// toMove is the mailbox of the seat to move, and the newest email there
// that lists its moves (waiting for it to arrive).
func (p *players) toMove() (string, smtpsink.Parsed) {
	p.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, box := range []string{"ann", "bob"} {
			v, n := p.view(box)
			if n == 0 {
				continue
			}
			// The email of the current version: a reply binds to the
			// version its address names (#29), and an older email (the
			// invitation, say) is stale once the seat has moved.
			current := "w" + strconv.FormatInt(v, 10) + "-"
			msgs := p.pf.Mailbox(box)
			for i := len(msgs) - 1; i >= p.seen[box]; i-- {
				pm, err := smtpsink.Parse(msgs[i])
				if err != nil {
					p.t.Fatal(err)
				}
				if regexp.MustCompile(`(?m)^1\. `).MatchString(pm.Text) && strings.Contains(pm.Header.Get("Reply-To"), current) {
					p.seen[box] = len(msgs)
					return box, pm
				}
			}
		}
	}
	p.t.Fatalf("no email lists the moves of the seat to move\n%s", p.pf.Log())
	return "", smtpsink.Parsed{}
}

// sent is a reply submitted, and when.
type sent struct {
	box     string
	version int64
	sent    time.Time
}

// sendReply answers the latest email of the seat to move with sendmail
// (see composeReply).
func (p *players) sendReply(what string, compose func(subject string) (headers, body string)) sent {
	p.t.Helper()
	s, msg := p.composeReply(what, compose)
	s.sent = time.Now()
	p.pf.Sendmail(p.t, s.box+"@players.test", msg)
	return s
}

// composeReply writes the answer to the latest email of the seat to move:
// compose gets the email's subject and returns the reply's headers (From
// to Content-Transfer-Encoding, the From address left empty) and body.
func (p *players) composeReply(what string, compose func(subject string) (headers, body string)) (sent, string) {
	p.t.Helper()
	box, em := p.toMove()
	v, _ := p.view(box)
	rt := em.Header.Get("Reply-To")
	a, err := netmail.ParseAddress(rt)
	if err != nil {
		p.t.Fatalf("Reply-To %q: %v", rt, err)
	}
	p.lastReplyTo = a.Address
	headers, body := compose(em.Subject)
	headers = strings.Replace(headers, "<>", "<"+box+"@players.test>", 1) + "To: " + rt + "\nMessage-ID: <" +
		strings.ReplaceAll(what, " ", ".") + "@players.test>\nIn-Reply-To: " + em.Header.Get("Message-Id") + "\n"
	return sent{box: box, version: v}, headers + "\n" + body
}

// waitPlayed waits until the game's version passed s's.
func (p *players) waitPlayed(s sent) {
	p.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if v, _ := p.view(s.box); v > s.version {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the reply of %s was not played\npostfix log:\n%s", s.box, p.pf.Log())
		}
	}
}

// replyAndWait sends a reply and waits until it is played, logging the
// time from sendmail to the move.
func (p *players) replyAndWait(what string, compose func(subject string) (string, string)) {
	p.t.Helper()
	s := p.sendReply(what, compose)
	p.waitPlayed(s)
	p.t.Logf("reply (%s) by %s: played %v after sendmail", what, s.box, time.Since(s.sent).Round(time.Millisecond))
}

// sendEveryKind renders an email of every kind with pbem's renderer and
// sends it, signed with keyPath, through the relay to kinds@players.test,
// and checks that each arrives.
func sendEveryKind(t *testing.T, pf *postfixtest.Postfix, keyPath, secret string) {
	t.Helper()
	d, err := notify.LoadDKIM(keyPath, "pbem1", "games.test")
	if err != nil {
		t.Fatal(err)
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: []byte(secret), PublicURL: "https://games.test",
		From: "pbem <pbem@games.test>", ReplyDomain: "reply.test"})
	if err != nil {
		t.Fatal(err)
	}
	dl := time.Now().Add(48 * time.Hour).UTC()
	var msgs []*notify.Message
	for i, k := range outbox.Kinds() {
		p := outbox.Payload{To: outbox.Recipient{Seat: 0, Name: "Kim Kinds", Email: "kinds@players.test"}, Language: "it",
			Game:     outbox.GameInfo{ID: "kinds", Name: "lords-of-scotland", Players: []string{"Kim Kinds", "Lou"}},
			Deadline: &dl, Lines: []string{"Lou prende il Conte di Mar"}, Moves: []string{"Prendi il Conte"}, Choice: "abc",
			Ranking: []outbox.Rank{{Seat: 0, Name: "Kim Kinds", Place: 1, Score: 40}, {Seat: 1, Name: "Lou", Place: 2, Score: 31}},
			Summary: "Kim vince.", Games: []outbox.WaitingGame{{Game: outbox.GameInfo{ID: "kinds", Name: "lords-of-scotland",
				Players: []string{"Kim Kinds", "Lou"}}, Deadline: &dl}},
			Answer: &outbox.Answer{Says: []string{outbox.AnswerPlayed}, Move: "Prendi il Conte"}}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.Render(notify.Row{ID: int64(1000 + i), GameID: "kinds", Seat: 0, Kind: k, Payload: b})
		if err != nil {
			t.Fatalf("render %s: %v", k, err)
		}
		msgs = append(msgs, m)
	}
	cfg, err := notify.ParseSMTPURL("smtp://" + pf.Submit + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	cfg.DKIM, cfg.HELO = d, "games.test"
	s, err := notify.NewSMTPSender(cfg, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, err := range s.Send(context.Background(), msgs) {
		if err != nil {
			t.Fatalf("%s: %v", msgs[i].Kind, err)
		}
	}
	got := pf.WaitMailbox(t, "kinds", len(msgs), 60*time.Second)
	kinds := map[string]bool{}
	for _, m := range got {
		pm, err := smtpsink.Parse(m)
		if err != nil {
			t.Fatal(err)
		}
		kinds[pm.Header.Get("Message-Id")] = true
	}
	if len(got) != len(msgs) || len(kinds) != len(msgs) {
		t.Fatalf("%d of %d kinds arrived\n%s", len(kinds), len(msgs), pf.Log())
	}
}
