package api_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"pbem/api"
	"pbem/api/inbound"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/enginetest"
	"pbem/engine/lords"
	"pbem/events/pbemevent"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/postgres"
)

// TestFairPlayEveryChannel is the indistinguishability test of issue #28.
// Two worlds (each its own database, store, game service, HTTP server
// with the pages, the mail routes and /metrics, reply processor, mail
// worker and SMTP server on loopback) read the same stream of randomness
// (so their games get the same ids and seeds) and one clock (so their
// events, rows and emails are dated alike), and play the same moves,
// except in what is hidden from Ann (seat 0):
//
//   - a card of Bob's hand swapped with the bottom card of the deck in
//     world B's deal (enginetest.Rigged: Lords of Scotland's draw pile,
//     Swords and Bagpipes' bagpipe deck), the game then played on with
//     moves both worlds list;
//   - Bob's own hidden choice: the card he musters face down (Lords), the
//     side he chooses in secret while Ann still has to (Bagpipes);
//   - Bob's hand again (Bagpipes, 3 players), the game played on until
//     the service plays a forced step for a seat (engine.State.Forced:
//     the badge with one receiver, a pass with no card in hand), at once
//     and in both worlds alike (issue #43: a step forced only by a hidden
//     hand would be played in one world and asked in the other).
//
// After every step Ann's outputs on every channel must be the same bytes
// in both worlds: her view JSON (with its explanations), her history
// JSON, her play page and history page (HTML, with "Since your last
// turn" and the table talk), her live-update stream, every email to her (headers, text and HTML, read from the SMTP
// conversation), the audit page and the audit API before the end,
// /metrics, and, once in each game, the answers to her errors: a move
// naming the card that is Bob's in one world and in the deck in the
// other, over the API and the page's form, a stale version, a move out of
// turn, and a reply to her email that plays no move of the list, with its
// emailed answer.
//
// Masked, by name, because they are uniformly random to Ann: the chain
// hashes (history's hash and prev_hash, the history page's hash prefix),
// each SHA-256 over an HMAC commitment under the game's key K, which
// Ann does not have (events package doc); the emails' Message-ID and
// MIME boundary (random per email, drawn by the mailer). Masked because
// they are the wall clock of the machine, not the game's clock: the
// emails' Date header (when the mailer wrote the message) and the request
// durations of /metrics (how long the server took; the times of the
// system's decisions are TestFairPlayDecisionTimes' subject). Nothing else is masked: the two worlds' servers even share
// PBEM_PUBLIC_URL.
func TestFairPlayEveryChannel(t *testing.T) {
	t.Parallel()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	bg := bagpipes.Game{}
	cases := []fairCase{
		{name: "lords/hand", game: lg, players: 2, steps: 14, swap: [2][]any{{"hands", 1}, {"draw"}}},
		{name: "lords/facedown", game: lg, players: 2, steps: 200, differ: func(a, b map[string]any) bool {
			return a["type"] == "muster" && b["type"] == "muster" && a["face_up"] == false && b["face_up"] == false && a["card"] != b["card"]
		}},
		{name: "bagpipes/hand", game: bg, players: 3, steps: 14, swap: [2][]any{{"seats", 1, "hand"}, {"bagpipe_deck"}}},
		{name: "bagpipes/side", game: bg, players: 2, steps: 200, both: true, differ: func(a, b map[string]any) bool {
			return a["type"] == "choose" && b["type"] == "choose" && a["side"] != b["side"] && a["dagger"] == b["dagger"]
		}},
		// Bob's hands differ; the game goes on to the first forced step
		// played for a seat (the badge with one receiver, a pass with no
		// card): its timing and its words tell Ann nothing either.
		{name: "bagpipes/forced", game: bg, players: 3, steps: 300, swap: [2][]any{{"seats", 1, "hand"}, {"bagpipe_deck"}}, forced: true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) { playFairCase(t, c, uint64(i)) })
	}
}

// fairCase is one pair of games of TestFairPlayEveryChannel.
type fairCase struct {
	name    string
	game    engine.Game
	players int
	// swap, if set, names the arrays whose first elements world B's deal
	// swaps (Bob's card and the deck's bottom one).
	swap [2][]any
	// differ, if set, reports whether two of Bob's moves differ only in
	// what Ann may not see: world A plays the first, B the second, and
	// the case ends after the comparison that follows.
	differ func(a, b map[string]any) bool
	// both: differ counts only while Ann is awaited too (a simultaneous
	// choice that Bob's would otherwise reveal).
	both bool
	// steps bounds the moves played.
	steps int
	// forced: the case ends after the comparison that follows the first
	// forced step (a "forced:N" actor in world A's stream), and fails if
	// none came within steps.
	forced bool
}

// fairClock is the worlds' one clock (read by servers' goroutines).
type fairClock struct{ ns atomic.Int64 }

func (c *fairClock) now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *fairClock) add(d time.Duration) { c.ns.Add(int64(d)) }

// fairWorld is one world of TestFairPlayEveryChannel.
type fairWorld struct {
	t      *testing.T
	name   string
	url    string
	store  *evpg.Store
	svc    *play.Service
	proc   *inbound.Processor
	worker *notify.Worker
	sink   *smtpsink.Sink
	seen   int // messages of sink already read
	reg    *prometheus.Registry
	// streams counts the live streams opened.
	streams int
	web     *http.Client
	id      string
}

// fairPublicURL is both worlds' PBEM_PUBLIC_URL.
const fairPublicURL = "https://pbem.example"

func newFairWorld(t *testing.T, name string, g engine.Game, clock *fairClock, stream uint64) *fairWorld {
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	store.SetClock(clock.now)
	svc := play.New(play.Config{Games: engine.NewRegistry(g), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
		Now: clock.now, Seeds: rand.NewChaCha8([32]byte{28, byte(stream)})})
	proc, err := inbound.New(inbound.Config{Service: svc, Ledger: notifypg.NewInbound(pool), Domain: "reply.example", Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	mc := api.MailConfig{Secret: secret, Prefs: notifypg.NewPrefs(pool), Outbox: notifypg.NewOutbox(pool), Service: svc, Replies: proc}
	pc := api.PageConfig{Service: svc, Secret: secret, PublicURL: fairPublicURL, Notify: store.Notify, Poll: time.Second}
	reg := prometheus.NewRegistry()
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Pages: &pc, Mail: &mc, Metrics: reg}))
	t.Cleanup(hs.Close)
	sink, sender := startSink(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: fairPublicURL, ReplyDomain: "reply.example"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: sender, Renderer: r,
		Seats: notifypg.NewSeats(pool, notifypg.Histories{Games: engine.NewRegistry(g), Events: store}), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	web := &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &fairWorld{t: t, name: name, url: hs.URL, store: store, svc: svc, proc: proc, worker: w, sink: sink, web: web, reg: reg}
}

// playFairCase plays case c in two worlds and compares Ann's outputs
// after every step.
func playFairCase(t *testing.T, c fairCase, stream uint64) {
	ctx := context.Background()
	clock := &fairClock{}
	// After the real time: rows the database dates are due by this clock.
	clock.ns.Store(time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC).UnixNano())
	gb := c.game
	var mu sync.Mutex
	var dealt []any // the two cards world B's last deal swapped
	if c.swap[0] != nil {
		swap := enginetest.Swap(c.swap[0], 0, c.swap[1], 0)
		gb = enginetest.Rigged{Game: c.game, Rig: func(st map[string]any) {
			mu.Lock()
			dealt = []any{arrayIn(st, c.swap[0])[0], arrayIn(st, c.swap[1])[0]}
			mu.Unlock()
			swap(st)
		}}
	}
	worlds := [2]*fairWorld{newFairWorld(t, "A", c.game, clock, stream), newFairWorld(t, "B", gb, clock, stream)}
	names := []string{"Ann", "Bob", "Cid"}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: c.game.Name()}
	for i := range c.players {
		req.Players = append(req.Players, play.NewPlayer{Name: names[i], Email: strings.ToLower(names[i]) + "@example.org"})
	}
	for _, w := range worlds {
		cg, err := w.svc.Create(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		w.id = cg.ID
		w.open()
	}
	if worlds[0].id != worlds[1].id {
		t.Fatalf("the worlds' games are %s and %s: not one stream of randomness", worlds[0].id, worlds[1].id)
	}
	mu.Lock()
	swapped := dealt // the game's deal (a request is checked with a deal of its own before)
	mu.Unlock()
	if c.swap[0] != nil && (len(swapped) != 2 || swapped[0] == swapped[1]) {
		t.Fatalf("world B's deal swapped %v", swapped)
	}
	compareFair(t, worlds, "the start")
	rng := rand.New(rand.NewPCG(28, stream))
	probed := false
	for step := 1; step <= c.steps; step++ {
		v := worlds[0].view(0)
		if v.Status != "active" {
			t.Fatalf("step %d: the game ended", step)
		}
		seat := v.ToMove[rng.IntN(len(v.ToMove))]
		if c.differ != nil && slices.Contains(v.ToMove, 1) {
			seat = 1
		}
		if !probed && slices.Contains(v.ToMove, 0) && step >= 3 {
			probeFairErrors(t, worlds, swapped)
			compareFair(t, worlds, fmt.Sprintf("step %d, after Ann's errors", step))
			probed = true
		}
		moves := [2][]json.RawMessage{worlds[0].legal(seat), worlds[1].legal(seat)}
		var both []json.RawMessage
		for _, m := range moves[0] {
			if slices.ContainsFunc(moves[1], func(x json.RawMessage) bool { return string(x) == string(m) }) {
				both = append(both, m)
			}
		}
		if len(both) == 0 {
			t.Fatalf("step %d: no move of seat %d is listed in both worlds", step, seat)
		}
		pair := [2]json.RawMessage{}
		if c.differ != nil && seat == 1 && (!c.both || slices.Contains(v.ToMove, 0)) {
			for _, a := range both {
				for _, b := range both {
					if pair[0] == nil && c.differ(decode(t, a), decode(t, b)) {
						pair = [2]json.RawMessage{a, b}
					}
				}
			}
		}
		differ := pair[0] != nil
		if !differ {
			m := both[rng.IntN(len(both))]
			pair = [2]json.RawMessage{m, m}
		}
		clock.add(time.Minute)
		for k, w := range worlds {
			if _, err := w.svc.Move(ctx, w.id, tokens.Seat(secret, w.id, seat, 0), play.MoveRequest{Version: v.Version, Move: play.PostedMove(pair[k])}); err != nil {
				t.Fatalf("step %d, world %s: %v", step, w.name, err)
			}
		}
		what := fmt.Sprintf("step %d (seat %d played %s)", step, seat, pair[0])
		if differ {
			what = fmt.Sprintf("step %d (Bob played %s in world A and %s in world B)", step, pair[0], pair[1])
		}
		compareFair(t, worlds, what)
		if t.Failed() {
			return
		}
		if differ {
			t.Logf("%s: Ann's channels are the same bytes in both worlds", what)
			return
		}
		if c.forced && worlds[0].forcedSteps() > 0 {
			if n := worlds[1].forcedSteps(); n != worlds[0].forcedSteps() {
				t.Fatalf("%s: %d forced events in world A, %d in world B", what, worlds[0].forcedSteps(), n)
			}
			t.Logf("%s: a forced step was played for a seat; Ann's channels are the same bytes in both worlds", what)
			return
		}
	}
	if c.differ != nil {
		t.Fatal("Bob made no hidden choice")
	}
	if c.forced {
		t.Fatal("no forced step came")
	}
	if !probed {
		t.Fatal("Ann's errors were not tried")
	}
	t.Logf("%d steps after the deals differed in %v: Ann's channels are the same bytes in both worlds at each", c.steps, swapped)
}

// arrayIn is the array at path p of a state's JSON.
func arrayIn(v any, p []any) []any {
	for _, k := range p {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.([]any)
}

func decode(t *testing.T, m json.RawMessage) map[string]any {
	var x map[string]any
	if err := json.Unmarshal(m, &x); err != nil {
		t.Fatal(err)
	}
	return x
}

// open visits Ann's play link (the token is swapped for a cookie).
func (w *fairWorld) open() {
	if r := w.get("/play/" + w.id + "?token=" + tokens.Seat(secret, w.id, 0, 0)); r.status != http.StatusSeeOther && r.status != http.StatusFound {
		w.t.Fatalf("world %s: Ann's link answers %d", w.name, r.status)
	}
}

// view is seat's view.
func (w *fairWorld) view(seat int) *play.View {
	v, err := w.svc.View(context.Background(), w.id, tokens.Seat(secret, w.id, seat, 0))
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// legal is seat's legal moves as JSON.
func (w *fairWorld) legal(seat int) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range w.view(seat).LegalMoves {
		b, err := json.Marshal(m)
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// answer is an HTTP answer as compared.
type answer struct {
	status int
	body   string
}

func (w *fairWorld) do(method, path, token, ctype, body string) answer {
	w.t.Helper()
	req, err := http.NewRequest(method, w.url+path, strings.NewReader(body))
	if err != nil {
		w.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := w.web.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	if loc := resp.Header.Get("Location"); loc != "" {
		return answer{resp.StatusCode, "Location: " + loc + "\n" + string(b)}
	}
	return answer{resp.StatusCode, string(b)}
}

func (w *fairWorld) get(path string) answer { return w.do(http.MethodGet, path, "", "", "") }

// live is the first message of Ann's live-update stream; the test then
// hangs up.
func (w *fairWorld) live() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url+"/play/"+w.id+"/events", nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.streams++
	resp, err := w.web.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg strings.Builder
	fmt.Fprintf(&msg, "%d %s\n", resp.StatusCode, resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != "" {
		msg.WriteString(sc.Text() + "\n")
	}
	return msg.String()
}

// metrics is GET /metrics once the server has counted every live stream
// the test hung up on (a stream is counted when the server notices, a
// moment later): read from the registry, which counts no request. Both
// the stream's count and its duration: the server counts the request,
// then observes its duration, and a read between the two would show the
// worlds apart by the timing alone.
func (w *fairWorld) metrics() string {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		fams, err := w.reg.Gather()
		if err != nil {
			w.t.Fatal(err)
		}
		var n, d float64
		for _, f := range fams {
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() != "route" || l.GetValue() != "/play/:game/events" {
						continue
					}
					switch f.GetName() {
					case "pbem_http_requests_total":
						n += m.GetCounter().GetValue()
					case "pbem_http_request_duration_seconds":
						d += float64(m.GetHistogram().GetSampleCount())
					}
				}
			}
		}
		if int(n) == w.streams && int(d) == w.streams {
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("world %s: %v live streams counted, %v timed, %d opened", w.name, n, d, w.streams)
		}
	}
	return w.get("/metrics").body
}

// mails runs the mail worker until it has nothing due and returns the
// emails to Ann it sent, read from the SMTP conversation: every header
// but Message-ID (random per email) and Date (the mailer's wall clock when
// it wrote the message), the MIME boundary masked (random per email), the
// text and the HTML.
func (w *fairWorld) mails() []string {
	n := 0
	for {
		got, err := w.worker.RunOnce(context.Background())
		if err != nil {
			w.t.Fatal(err)
		}
		if got == 0 {
			break
		}
		n += got
	}
	all := w.sink.Wait(w.seen+n, 10*time.Second)
	if len(all) != w.seen+n {
		w.t.Fatalf("world %s: the SMTP server received %d emails, want %d", w.name, len(all), w.seen+n)
	}
	var out []string
	for _, m := range all[w.seen:] {
		if !slices.Contains(m.To, "ann@example.org") {
			continue
		}
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			w.t.Fatal(err)
		}
		var b strings.Builder
		keys := make([]string, 0, len(p.Header))
		for k := range p.Header {
			if k != "Message-Id" && k != "Date" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(p.Header[k], " | "))
		}
		b.WriteString("\n" + p.Text + "\n" + p.HTML)
		if _, params, err := mime.ParseMediaType(p.Header.Get("Content-Type")); err == nil && params["boundary"] != "" {
			out = append(out, strings.ReplaceAll(b.String(), params["boundary"], "BOUNDARY"))
			continue
		}
		out = append(out, b.String())
	}
	w.seen = len(all)
	return out
}

// lastReplyTo is the Reply-To of the latest email to Ann.
func (w *fairWorld) lastReplyTo() string {
	all := w.sink.Messages()
	for i := len(all) - 1; i >= 0; i-- {
		if !slices.Contains(all[i].To, "ann@example.org") {
			continue
		}
		p, err := smtpsink.Parse(all[i].Data)
		if err != nil {
			w.t.Fatal(err)
		}
		if r := p.Header.Get("Reply-To"); r != "" {
			return r
		}
	}
	w.t.Fatalf("world %s: no email to Ann with a Reply-To", w.name)
	return ""
}

// durationLine is a /metrics line of a request duration: the server's
// wall clock.
var durationLine = regexp.MustCompile(`(?m)^\S*_seconds(_bucket|_sum)\{[^\n]*$`)

// channels is everything Ann is shown, by channel, with the chain hashes
// and the request durations masked.
func (w *fairWorld) channels() map[string]string {
	tok := tokens.Seat(secret, w.id, 0, 0)
	out := map[string]string{}
	apiGet := func(name, path string) {
		a := w.do(http.MethodGet, path, tok, "", "")
		out[name] = fmt.Sprintf("%d %s", a.status, a.body)
	}
	apiGet("view JSON", "/api/v1/games/"+w.id+"/view")
	apiGet("history JSON", "/api/v1/games/"+w.id+"/history")
	apiGet("audit JSON", "/api/v1/games/"+w.id+"/audit")
	apiGet("summary JSON", "/api/v1/games/"+w.id)
	// In one order: a browser's first page gets the style sheet inline.
	for _, p := range [][2]string{{"play page", "/play/" + w.id}, {"history page", "/play/" + w.id + "/history"},
		{"audit page", "/games/" + w.id + "/audit"}} {
		a := w.get(p[1])
		out[p[0]] = fmt.Sprintf("%d %s", a.status, a.body)
	}
	out["live stream"] = w.live()
	out["emails"] = strings.Join(w.mails(), "\n=====\n")
	out["metrics"] = durationLine.ReplaceAllString(w.metrics(), "DURATION")
	evs, err := w.store.ReadStream(context.Background(), w.id, 1)
	if err != nil {
		w.t.Fatal(err)
	}
	for name, s := range out {
		for _, e := range evs {
			for _, h := range [][]byte{e.Hash, e.PrevHash} {
				if len(h) == 0 {
					continue
				}
				x := hex.EncodeToString(h)
				s = strings.ReplaceAll(s, x, "HASH")
				s = strings.ReplaceAll(s, x[:12], "HASH12")
				s = strings.ReplaceAll(s, base64.StdEncoding.EncodeToString(h), "HASH64")
			}
		}
		out[name] = s
	}
	return out
}

// forcedSteps counts the events of w's game played as forced steps.
func (w *fairWorld) forcedSteps() int {
	evs, err := w.store.ReadStream(context.Background(), w.id, 1)
	if err != nil {
		w.t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if _, ok := pbemevent.SeatOfForced(e.Meta.Actor); ok {
			n++
		}
	}
	return n
}

// compareFair fails the test where Ann's channels differ between the worlds.
func compareFair(t *testing.T, worlds [2]*fairWorld, when string) {
	t.Helper()
	a, b := worlds[0].channels(), worlds[1].channels()
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
	}) {
		x, y := a[name], b[name]
		if x == y {
			continue
		}
		i := 0
		for i < len(x) && i < len(y) && x[i] == y[i] {
			i++
		}
		t.Errorf("after %s, Ann's %s differs at byte %d:\nA: %s\nB: %s", when, name, i, around(x, i), around(y, i))
	}
}

// around is text around byte i.
func around(s string, i int) string { return s[max(0, i-120):min(len(s), i+200)] }

// probeFairErrors makes Ann err in both worlds, the same way, and
// compares the answers: moves naming the swapped cards (Bob's in one
// world, the deck's in the other) over the API and the page's form, a
// stale version, a move of another seat's, a reply to her latest email
// that names no move of its list (its answer is emailed: compared with
// the emails).
func probeFairErrors(t *testing.T, worlds [2]*fairWorld, swapped []any) {
	t.Helper()
	v := worlds[0].view(0)
	var probes []string
	legal := worlds[0].legal(0)
	for _, m := range legal {
		x := decode(t, m)
		if _, ok := x["card"]; ok {
			for _, c := range swapped {
				x["card"] = c
				b, _ := json.Marshal(x)
				probes = append(probes, string(b))
			}
			break
		}
	}
	probes = append(probes, `{"type":"nonsense"}`, string(legal[0]))
	type result struct{ api, page []string }
	var res [2]result
	for k, w := range worlds {
		tok := tokens.Seat(secret, w.id, 0, 0)
		page := w.get("/play/" + w.id)
		csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page.body)
		if csrf == nil {
			t.Fatalf("world %s: no csrf field on Ann's page", w.name)
		}
		for i, p := range probes {
			ver := v.Version
			if i == len(probes)-1 {
				ver-- // a legal move at a stale version
			}
			body := fmt.Sprintf(`{"version":%d,"move":%s}`, ver, p)
			a := w.do(http.MethodPost, "/api/v1/games/"+w.id+"/moves", tok, "application/json", body)
			res[k].api = append(res[k].api, fmt.Sprintf("%d %s", a.status, a.body))
			form := url.Values{"csrf": {csrf[1]}, "version": {fmt.Sprint(ver)}, "move": {p}}
			a = w.do(http.MethodPost, "/play/"+w.id, "", "application/x-www-form-urlencoded", form.Encode())
			res[k].page = append(res[k].page, fmt.Sprintf("%d %s", a.status, a.body))
			if a.status == http.StatusSeeOther {
				// The page the browser is sent to tells the error.
				b := w.get("/play/" + w.id)
				res[k].page = append(res[k].page, fmt.Sprintf("%d %s", b.status, b.body))
			}
		}
		// A move of Bob's, posted with Ann's token.
		if bob := w.legal(1); len(bob) > 0 {
			a := w.do(http.MethodPost, "/api/v1/games/"+w.id+"/moves", tok, "application/json",
				fmt.Sprintf(`{"version":%d,"move":%s}`, v.Version, bob[0]))
			res[k].api = append(res[k].api, fmt.Sprintf("%d %s", a.status, a.body))
		}
		// A reply to her latest email naming no move of its list.
		rcpt := w.lastReplyTo()
		addr, err := notify.ParseReplyAddress(rcpt, "reply.example")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.proc.Check(context.Background(), rcpt); err != nil {
			t.Fatalf("world %s: the reply address is refused: %v", w.name, err)
		}
		raw := "From: Ann <ann@example.org>\r\nTo: " + rcpt + "\r\nSubject: Re: your turn\r\nMessage-ID: <ann-1@example.org>\r\n" +
			"Date: Mon, 04 Jan 2027 09:30:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n99\r\n"
		out, err := w.proc.Handle(context.Background(), "ann@example.org", addr, []byte(raw))
		if err != nil {
			t.Fatalf("world %s: reply: %v", w.name, err)
		}
		res[k].api = append(res[k].api, "reply: "+string(out))
	}
	for i := range res[0].api {
		if res[0].api[i] != res[1].api[i] {
			t.Errorf("Ann's error %d over the API differs:\nA: %s\nB: %s", i, res[0].api[i], res[1].api[i])
		}
	}
	for i := range res[0].page {
		if res[0].page[i] != res[1].page[i] {
			j := 0
			x, y := res[0].page[i], res[1].page[i]
			for j < len(x) && j < len(y) && x[j] == y[j] {
				j++
			}
			t.Errorf("Ann's error page %d differs at byte %d:\nA: %s\nB: %s", i, j, around(x, j), around(y, j))
		}
	}
	var statuses []string
	for _, p := range res[0].page {
		statuses = append(statuses, p[:3])
	}
	t.Logf("Ann's errors, the same in both worlds: over the API %q; on the page, statuses %v", res[0].api, statuses)
}
