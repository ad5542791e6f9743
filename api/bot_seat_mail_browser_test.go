package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/emersion/go-smtp"

	"pbem/api/inbound"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// botSeatMail is the mail side of TestBrowserBotSeatAwaitsNoPerson: the
// real outbox worker (with its freshness check) sending over SMTP on
// loopback with reply addresses, and the inbound listener reading replies.
type botSeatMail struct {
	t      *testing.T
	w      *notify.Worker
	sink   *smtpsink.Sink
	listen string
	seen   int
	// ahead is how far beyond a second ahead of the real clock the
	// worker's runs: past a mail grace, for a service that has one.
	ahead time.Duration
}

const botSeatReplyDomain = "reply.pbem.test"

func newBotSeatMail(t *testing.T, e *pageEnv) *botSeatMail {
	t.Helper()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	sink, sender := startSink(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url, ReplyDomain: botSeatReplyDomain})
	if err != nil {
		t.Fatal(err)
	}
	hist := notifypg.Histories{Games: engine.NewRegistry(lg, bagpipes.Game{}), Events: e.store}
	out := notifypg.NewOutbox(e.pool).WithTurns(hist)
	m := &botSeatMail{t: t, sink: sink}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: out, Freshness: out, Seats: notifypg.NewSeats(e.pool, hist),
		Prefs: notifypg.NewPrefs(e.pool), Sender: sender, Renderer: r, Now: func() time.Time { return time.Now().Add(time.Second + m.ahead) }})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	proc, err := inbound.New(inbound.Config{Service: e.svc, Ledger: notifypg.NewInbound(e.pool), Domain: botSeatReplyDomain, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lis := inbound.NewListener(proc, inbound.ListenerConfig{MaxBytes: 1 << 20, Logger: logger})
	go func() { _ = lis.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = lis.Shutdown(ctx)
	})
	m.w, m.listen = w, ln.Addr().String()
	return m
}

// send runs the worker until nothing is due and returns the emails sent
// since the last call, by recipient.
func (m *botSeatMail) send() map[string][]smtpsink.Parsed {
	m.t.Helper()
	for {
		n, err := m.w.RunOnce(context.Background())
		if err != nil {
			m.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	out := map[string][]smtpsink.Parsed{}
	msgs := m.sink.Messages()
	for _, r := range msgs[m.seen:] {
		p, err := smtpsink.Parse(r.Data)
		if err != nil {
			m.t.Fatal(err)
		}
		out[r.To[0]] = append(out[r.To[0]], p)
	}
	m.seen = len(msgs)
	return out
}

// reply answers em over SMTP, as its recipient's mail client would.
func (m *botSeatMail) reply(em smtpsink.Parsed, from, body string) {
	m.t.Helper()
	rt, err := mail.ParseAddress(em.Header.Get("Reply-To"))
	if err != nil {
		m.t.Fatalf("Reply-To of %q: %v", em.Subject, err)
	}
	msg := "From: " + from + "\r\nTo: " + rt.Address + "\r\nSubject: Re: " + em.Subject + "\r\nMessage-ID: <bot-seat-" +
		strings.ReplaceAll(from, "@", ".") + "@client.example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n")
	c, err := smtp.Dial(m.listen)
	if err != nil {
		m.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		m.t.Fatal(err)
	}
	if err := c.SendMail(from, []string{rt.Address}, strings.NewReader(msg)); err != nil {
		m.t.Fatalf("reply to %s: %v", rt.Address, err)
	}
	if err := c.Quit(); err != nil {
		m.t.Fatal(err)
	}
}

// TestBrowserBotSeatAwaitsNoPerson is issue #43's first hole, in English,
// French and Italian: Ann's turn comes and its email waits in the outbox;
// the organiser, on the admin page in chromium, hands her seat to a bot
// (no bot worker runs, so the game awaits her seat, now the bot's). Ann
// gets the notice that a bot plays her seat and no your-turn email; a
// reminder due then goes to no one; her daily digest lists only her other
// game, where she plays; and her reply "3" to her invitation is answered
// that a bot is playing her seat for now and she should ask the organiser
// to hand it back, in her language, with nothing played.
func TestBrowserBotSeatAwaitsNoPerson(t *testing.T) {
	root := startBrowser(t)
	says := map[string]string{
		"en": "A bot is playing your seat for now, so nothing was played: ask the organiser to hand it back to you.",
		"fr": "Un robot joue votre place pour l'instant\u00a0: rien n'a été joué. Demandez à l'organisateur de vous la rendre.",
		"it": "Per ora il tuo posto è giocato da un bot: niente è stato giocato. Chiedi all'organizzatore di restituirtelo.",
	}
	for _, lang := range []string{"en", "fr", "it"} {
		t.Run(lang, func(t *testing.T) {
			e := newPageEnv(t)
			ctx := context.Background()
			m := newBotSeatMail(t, e)
			id := e.createGame(lords.Name, 3, lang, "")
			other := e.createGame(lords.Name, 3, lang, "")
			var invitation smtpsink.Parsed
			for _, p := range m.send()["ann@example.org"] {
				if strings.Contains(p.Text, "/play/"+id) && p.Header.Get("Reply-To") != "" {
					invitation = p
				}
			}
			if invitation.Subject == "" {
				t.Fatal("Ann got no invitation with a reply address")
			}
			// Ann plays in the other game whoever moves first: she is
			// awaited there, as a person, until the end of the test.
			rng := rand.New(rand.NewPCG(43, 1))
			for e.toMove(other) != 0 {
				e.playUntilSeat(other, e.toMove(other), rng)
			}
			// Ann's turn in the game comes round, its email waiting.
			e.playUntilSeat(id, 0, rng)
			for e.toMove(id) != 0 {
				e.playUntilSeat(id, e.toMove(id), rng)
			}
			// Waiting in the outbox, or owed by the game row until the
			// worker writes it (games.turn_mail, migration 0101).
			var waiting int
			if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM `+playtest.MailSQL+` m
				WHERE game_id = $1 AND seat = 0 AND kind = 'your_turn' AND status = 'pending'`, id).Scan(&waiting); err != nil || waiting == 0 {
				t.Fatalf("no your-turn email waits for Ann: %d, %v", waiting, err)
			}

			// The organiser hands Ann's seat to a bot on the admin page.
			org := tab(t, root, 390, 844, true)
			within(t, org, 30*time.Second, "the admin page's bot form",
				chromedp.Navigate(e.url+"/admin/"+id+"?token="+url.QueryEscape(tokens.Admin(secret, id, 0))),
				chromedp.WaitReady(chromedp.CSS("#bot-level-0")),
				chromedp.Evaluate[chromedp.Void](`document.getElementById("bot-level-0").closest("details").open = true`),
				chromedp.SetValue(chromedp.CSS("#bot-level-0"), "easy"),
				// The click navigates: let the evaluation return first.
				chromedp.Evaluate[chromedp.Void](`setTimeout(function () { document.getElementById("bot-level-0").form.querySelector("button[type=submit]").click(); }, 0)`),
				// The page again, with the form that hands the seat back.
				chromedp.WaitReady(chromedp.CSS(`input[name="level"][value=""]`)))
			sm, err := e.svc.Summary(ctx, id)
			if err != nil || sm.Seats[0].Bot != "easy" || e.toMove(id) != 0 {
				t.Fatalf("after the admin page: seats %+v, to move %d, %v", sm.Seats, e.toMove(id), err)
			}

			got := m.send()
			for _, p := range got["ann@example.org"] {
				if strings.Contains(p.Text, "\n1. ") {
					t.Errorf("Ann got an email asking her to play her bot's seat:\n%s\n%s", p.Subject, p.Text)
				}
			}
			if len(got["ann@example.org"]) != 1 {
				t.Errorf("Ann got %d emails after the hand-off, want the notice alone", len(got["ann@example.org"]))
			}
			var skipped int
			if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE game_id = $1 AND seat = 0 AND kind = 'your_turn' AND status = 'skipped' AND last_error = $2`,
				id, notify.StaleBot).Scan(&skipped); err != nil || skipped != waiting {
				t.Errorf("Ann's waiting your-turn emails skipped as the bot's: %d of %d, %v", skipped, waiting, err)
			}

			// A reminder due now: none for Ann's seat.
			if _, err := e.pool.Exec(ctx, `UPDATE games SET reminder_at = now() - interval '1 minute' WHERE id = $1`, id); err != nil {
				t.Fatal(err)
			}
			lg, err := lords.New()
			if err != nil {
				t.Fatal(err)
			}
			dl := notifypg.NewDigester(e.pool, notifypg.Histories{Games: engine.NewRegistry(lg), Events: e.store})
			sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(e.pool), Timeouter: e.svc})
			if err != nil {
				t.Fatal(err)
			}
			if n, err := sched.Remind(ctx); err != nil || n != 1 {
				t.Fatalf("reminders: %d games, %v", n, err)
			}
			var reminders int
			if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE game_id = $1 AND seat = 0 AND kind = 'reminder'`, id).Scan(&reminders); err != nil || reminders != 0 {
				t.Errorf("reminders to Ann's bot seat: %d, %v", reminders, err)
			}

			// Ann's digest lists the other game only.
			if err := notifypg.NewPrefs(e.pool).SetMode(ctx, "ann@example.org", notify.DailyDigest); err != nil {
				t.Fatal(err)
			}
			if _, err := dl.Digests(ctx, time.Now(), 0); err != nil {
				t.Fatal(err)
			}
			var raw []byte
			if err := e.pool.QueryRow(ctx, `SELECT payload FROM outbox WHERE kind = 'digest' AND lower(payload->'to'->>'email') = 'ann@example.org'`).Scan(&raw); err != nil {
				t.Fatalf("Ann's digest: %v", err)
			}
			var dp outbox.Payload
			if err := json.Unmarshal(raw, &dp); err != nil {
				t.Fatal(err)
			}
			if len(dp.Games) != 1 || dp.Games[0].Game.ID != other {
				t.Errorf("Ann's digest lists %+v, want game %s alone", dp.Games, other)
			}
			if err := notifypg.NewPrefs(e.pool).SetMode(ctx, "ann@example.org", notify.Every); err != nil {
				t.Fatal(err)
			}
			m.send() // the digest

			// Ann answers her invitation with "3": the answer says a bot
			// plays her seat, in her language, and nothing is played.
			before := e.version(id)
			m.reply(invitation, "ann@example.org", "3\n")
			if e.version(id) != before {
				t.Fatalf("the reply played for the bot's seat (version %d, was %d)", e.version(id), before)
			}
			answers := m.send()["ann@example.org"]
			if len(answers) != 1 {
				t.Fatalf("Ann got %d answers, want 1", len(answers))
			}
			if a := answers[0].Text; !strings.Contains(a, says[lang]) || strings.Contains(a, "\n1. ") {
				t.Fatalf("the answer to Ann's reply:\n%s", a)
			}
		})
	}
}
