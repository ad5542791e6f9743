package inbound_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/prometheus/client_golang/prometheus"

	"pbem/api/inbound"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
	projpg "pbem/projections/postgres"
	"pbem/projections/testgame"

	"github.com/jackc/pgx/v5/pgxpool"
)

const replyDomain = "reply.pbem.test"

var secret = []byte("inbound test secret")

// env is a whole email loop on loopback: the game service on a fresh
// database, the outbox worker sending to a test SMTP server (the players'
// mailboxes), and the inbound listener the test's own SMTP client writes to.
type env struct {
	t      testing.TB
	pool   *pgxpool.Pool
	store  events.Store
	games  engine.Registry
	svc    *play.Service
	worker *notify.Worker
	sink   *smtpsink.Sink
	proc   *inbound.Processor
	addr   string // the listener
	seen   int    // sink messages already taken by inbox
	// known holds, by seat, every move label the seat was offered.
	known map[int]map[string]bool
	// admin holds the admin token of each game created.
	admin map[string]string
	// reg holds the listener's metrics.
	reg *prometheus.Registry
	// heads logs the version of every email the worker sent, as serve's
	// does (notify.HeadLog).
	heads     *notify.HeadLog
	headsPath string
}

func newEnv(t *testing.T, opts ...func(*inbound.Config)) *env {
	t.Helper()
	return newBenchEnv(t, opts...)
}

// newBenchEnv is newEnv for a benchmark (no *testing.T helpers after it).
func newBenchEnv(t testing.TB, opts ...func(*inbound.Config)) *env {
	t.Helper()
	return newEnvOn(t, pgtest.NewPool(t), filepath.Join(t.TempDir(), "published-versions"), opts...)
}

// newEnvOn is newBenchEnv on pool, with the head log at headLog: a second
// one on the same pool and log is serve started again (after a restore).
func newEnvOn(t testing.TB, pool *pgxpool.Pool, headLog string, opts ...func(*inbound.Config)) *env {
	t.Helper()
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	l, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	reg := engine.NewRegistry(l, bagpipes.Game{}, testgame.Game{})
	svc := play.New(play.Config{Games: reg, Store: store, Repo: projpg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := notify.NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: "https://pbem.test", ReplyDomain: replyDomain})
	if err != nil {
		t.Fatal(err)
	}
	heads, err := notify.OpenHeadLog(headLog)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { heads.Close() })
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: sender, Renderer: r, Batch: 200, Heads: heads,
		Prefs: notifypg.NewPrefs(pool), Seats: notifypg.NewSeats(pool, notifypg.Histories{Games: reg, Events: store}), Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	ic := inbound.Config{Service: svc, Ledger: notifypg.NewInbound(pool), Zones: notifypg.NewSeats(pool, notifypg.Histories{}), Domain: replyDomain, AnswersPerHour: 10000,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(&ic)
	}
	proc, err := inbound.New(ic)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metrics := prometheus.NewRegistry()
	lc := inbound.ListenerConfig{MaxBytes: 1 << 20, Logger: ic.Logger, Metrics: inbound.NewMetrics(metrics)}
	if _, ok := t.(*testing.B); ok {
		lc.MaxBytes = 2 << 20
	}
	lis := inbound.NewListener(proc, lc)
	go func() { _ = lis.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = lis.Shutdown(ctx)
	})
	return &env{t: t, pool: pool, store: store, games: reg, svc: svc, worker: w, sink: sink, proc: proc, addr: ln.Addr().String(), reg: metrics, heads: heads, headsPath: headLog}
}

// create starts a 3-player game of name in lang.
func (e *env) create(name, lang string) string {
	e.t.Helper()
	g, err := e.svc.Create(context.Background(), play.CreateGame{Game: name, Language: lang, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}}})
	if err != nil {
		e.t.Fatal(err)
	}
	if e.admin == nil {
		e.admin = map[string]string{}
	}
	e.admin[g.ID] = g.AdminToken
	return g.ID
}

// email is one message a player received.
type email struct {
	to      string
	seat    int
	subject string
	replyTo string
	text    string
	html    string
	msgID   string
	moves   []string // the numbered list, "1. …" lines
}

var seatOf = map[string]int{"ann@example.org": 0, "bob@example.org": 1, "cat@example.org": 2}

// inbox sends every due outbox row and returns the emails the players
// received since the last call.
func (e *env) inbox() []email {
	e.t.Helper()
	ctx := context.Background()
	for {
		n, err := e.worker.RunOnce(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	var out []email
	msgs := e.sink.Messages()
	for _, m := range msgs[e.seen:] {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			e.t.Fatal(err)
		}
		em := email{to: to.Address, seat: seatOf[to.Address], subject: p.Subject, text: p.Text, html: p.HTML,
			msgID: p.Header.Get("Message-Id")}
		if rt := p.Header.Get("Reply-To"); rt != "" {
			a, err := mail.ParseAddress(rt)
			if err != nil {
				e.t.Fatalf("Reply-To %q: %v", rt, err)
			}
			em.replyTo = a.Address
		}
		em.moves = numberedLines(p.Text)
		out = append(out, em)
	}
	e.seen = len(msgs)
	return out
}

// numberedLines pulls the numbered list of moves out of an email's text:
// the "N. label" lines just above the line that explains "chat:".
func numberedLines(text string) []string {
	ls := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	help := -1
	for i, l := range ls {
		if strings.Contains(l, "chat:") {
			help = i
		}
	}
	end := help - 1
	for end >= 0 && strings.TrimSpace(ls[end]) == "" {
		end--
	}
	start := end
	for start >= 0 && strings.HasPrefix(ls[start], strconv.Itoa(start-end+countFrom(ls, start, end))+". ") {
		start--
	}
	var out []string
	for i := start + 1; i <= end; i++ {
		out = append(out, ls[i])
	}
	return out
}

// countFrom is the number the line at i must carry if the list ends at end:
// lists are read backwards, so it is found from the last line's number.
func countFrom(ls []string, i, end int) int {
	n, _, _ := strings.Cut(ls[end], ". ")
	last, err := strconv.Atoi(n)
	if err != nil {
		return -1 << 20
	}
	return last
}

// send writes a message to the listener with the test's own SMTP client:
// a real SMTP conversation. It returns the listener's refusal, if any.
func (e *env) send(from, to string, data string) error {
	e.t.Helper()
	return e.sendSized(from, to, data, 0)
}

// sendSized is send with a SIZE declared in MAIL FROM (0: none).
func (e *env) sendSized(from, to string, data string, size int64) error {
	e.t.Helper()
	c, err := smtp.Dial(e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		return err
	}
	var mo *smtp.MailOptions
	if size > 0 {
		mo = &smtp.MailOptions{Size: size}
	}
	if err := c.Mail(from, mo); err != nil {
		return err
	}
	if err := c.Rcpt(to, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(strings.ReplaceAll(data, "\n", "\r\n"))); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// plain builds a plain-text reply to em.
func plain(em email, msgID, body string) string {
	return "From: " + em.to + "\nTo: " + em.replyTo + "\nSubject: Re: " + em.subject + "\nMessage-ID: <" + msgID +
		">\nIn-Reply-To: " + em.msgID + "\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body
}

// reply answers em with body (plain text) and fails on a refusal.
func (e *env) reply(em email, msgID, body string) {
	e.t.Helper()
	if err := e.send(em.to, em.replyTo, plain(em, msgID, body)); err != nil {
		e.t.Fatalf("reply to %s: %v", em.replyTo, err)
	}
}

// view is a seat's view (the test's oracle, not the players').
func (e *env) view(id string, seat int) *play.View {
	e.t.Helper()
	v, err := playtest.SeatView(context.Background(), e.svc, secret, id, seat)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// engineResult replays the game's events through the engine alone.
func (e *env) engineResult(id string) *engine.Result {
	e.t.Helper()
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	var eng engine.Game
	var st engine.State
	for _, ev := range evs {
		if ev.Type == pbemevent.TypeCreated {
			var c pbemevent.Created
			if err := json.Unmarshal(ev.Data, &c); err != nil {
				e.t.Fatal(err)
			}
			seed, err := pbemevent.DecodeSeed(c.Seed)
			if err != nil {
				e.t.Fatal(err)
			}
			eng = e.games[c.Game]
			if st, err = eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language}); err != nil {
				e.t.Fatal(err)
			}
			continue
		}
		if pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		de, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		st.Apply(de)
	}
	return st.Result()
}
