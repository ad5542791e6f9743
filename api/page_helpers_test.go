package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// pageEnv is a running server with the HTML pages on a fresh database,
// with every game: Lords of Scotland, Swords and Bagpipes and the test game.
type pageEnv struct {
	t     testing.TB
	url   string
	svc   *play.Service
	pool  *pgxpool.Pool
	store *evpg.Store
	srv   *api.Server
}

func newPageEnv(t testing.TB) *pageEnv {
	t.Helper()
	return newPageEnvWith(t, nil)
}

// newPageEnvWith is newPageEnv with a hook to change the page config.
func newPageEnvWith(t testing.TB, config func(*api.PageConfig)) *pageEnv {
	t.Helper()
	return newPageEnvOf(t, 0, config)
}

// newPageEnvOf is newPageEnvWith whose game service gives the emails of
// a seat's own act a mail grace (play.Config.MailGrace), as serve does.
func newPageEnvOf(t testing.TB, grace time.Duration, config func(*api.PageConfig)) *pageEnv {
	t.Helper()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(lg, bagpipes.Game{}, testgame.Game{}),
		Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Records: postgres.New(pool), Secret: secret,
		Seeds: playtest.Seeds(t.Name()), MailGrace: grace})
	e := &pageEnv{t: t, svc: svc, pool: pool, store: store}
	pc := api.PageConfig{Service: svc, Secret: secret, Notify: store.Notify, Poll: time.Second}
	if config != nil {
		config(&pc)
	}
	e.srv = api.New(api.Config{Service: svc, Pages: &pc})
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	e.url = hs.URL
	return e
}

// createGame starts a game of n players (Ann, Bob, ...) in lang.
func (e *pageEnv) createGame(name string, n int, lang, options string) string {
	e.t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: name, Language: lang, Options: json.RawMessage(options)}
	for i := range n {
		req.Players = append(req.Players, play.NewPlayer{Name: names[i], Email: strings.ToLower(names[i]) + "@example.org"})
	}
	cg, err := e.svc.Create(context.Background(), req)
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	return cg.ID
}

// browser is an HTTP client with its own cookies that does not follow
// redirects (tests look at them).
type browser struct {
	t   testing.TB
	e   *pageEnv
	c   *http.Client
	jar *cookiejar.Jar
}

func (e *pageEnv) browser() *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return &browser{t: e.t, e: e, jar: jar, c: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// page is an answer: status, headers, body.
type page struct {
	Status int
	Header http.Header
	Body   string
}

func (b *browser) get(path string) page {
	b.t.Helper()
	resp, err := b.c.Get(b.e.url + path)
	if err != nil {
		b.t.Fatal(err)
	}
	return read(b.t, resp)
}

func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	resp, err := b.c.PostForm(b.e.url+path, form)
	if err != nil {
		b.t.Fatal(err)
	}
	return read(b.t, resp)
}

func read(t testing.TB, resp *http.Response) page {
	t.Helper()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

// open follows a play link: the token is swapped for a cookie, then the
// page is fetched.
func (b *browser) open(id string, seat int) page {
	b.t.Helper()
	p := b.get("/play/" + id + "?token=" + tokens.Seat(secret, id, seat, 0))
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/play/"+id {
		b.t.Fatalf("open: %d to %q", p.Status, p.Header.Get("Location"))
	}
	return b.get("/play/" + id)
}

var (
	reCSRF    = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	reVersion = regexp.MustCompile(`name="version" value="(\d+)"`)
	reMove    = regexp.MustCompile(`<button type="submit" name="move" value="([^"]+)"[^>]*>`)
	reRank    = regexp.MustCompile(`data-rank="(\d+)"`)
)

// form is the move form of a play page.
type form struct {
	csrf, version string
	moves         []string // each move's JSON
}

func moveForm(t testing.TB, body string) form {
	t.Helper()
	var f form
	if m := reCSRF.FindStringSubmatch(body); m != nil {
		f.csrf = m[1]
	}
	if m := reVersion.FindStringSubmatch(body); m != nil {
		f.version = m[1]
	}
	for _, m := range reMove.FindAllStringSubmatch(body, -1) {
		f.moves = append(f.moves, htmlUnescape(m[1]))
	}
	return f
}

func htmlUnescape(s string) string {
	r := strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#43;", "+")
	return r.Replace(s)
}

// version returns a game's current version.
func (e *pageEnv) version(id string) int64 {
	e.t.Helper()
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return sm.Version
}

// toMove returns the first seat awaited in a game.
func (e *pageEnv) toMove(id string) int {
	e.t.Helper()
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(sm.ToMove) == 0 {
		return -1
	}
	return sm.ToMove[0]
}

// playRandomMove plays for seat, the seat to move in game id, a legal move
// that rng picks from the seat's view, through the service.
func (e *pageEnv) playRandomMove(id string, seat int, rng *rand.Rand) {
	e.t.Helper()
	ctx := context.Background()
	v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
	if err != nil {
		e.t.Fatal(err)
	}
	mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
		e.t.Fatalf("game %s: seat %d's move at version %d: %v", id, seat, v.Version, err)
	}
}

// playToEnd plays a game to its end with pseudo-random legal moves through
// the service (at most limit moves) and returns how many it played.
func (e *pageEnv) playToEnd(id string, seed uint64, limit int) int {
	e.t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	for n := 0; n < limit; n++ {
		seat := e.toMove(id)
		if seat < 0 {
			return n
		}
		e.playRandomMove(id, seat, rng)
	}
	return limit
}

// streamVersions reads the versions a live-update stream sends, one per
// call; the test fails when the stream ends first.
func streamVersions(t *testing.T, body io.Reader) func() string {
	lines := bufio.NewScanner(body)
	return func() string {
		t.Helper()
		for lines.Scan() {
			if v, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				return v
			}
		}
		t.Fatalf("stream ended: %v", lines.Err())
		return ""
	}
}

// game is a game the page tests play and its number of seats.
type game struct {
	name    string
	players int
}

// bothGames are Lords of Scotland for two and Swords and Bagpipes for three.
var bothGames = []game{{lords.Name, 2}, {bagpipes.Name, 3}}
