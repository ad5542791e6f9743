package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"pbem/events/pbemevent"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
)

var (
	reCatchUp     = regexp.MustCompile(`(?s)<section id="catchup".*?</section>`)
	reCatchUpLine = regexp.MustCompile(`<li data-v="(\d+)">([^<]*)</li>`)
	reChanged     = regexp.MustCompile(`class="(?:card|bcard)[^"]*\bchanged\b`)
)

// catchUpLine is one line of a page's "Since your last turn".
type catchUpLine struct {
	Version int64
	Text    string
}

// catchUpOf reads the lines of a play page's "Since your last turn".
func catchUpOf(t testing.TB, body string) []catchUpLine {
	t.Helper()
	sec := reCatchUp.FindString(body)
	if sec == "" {
		t.Fatalf("the page has no \"Since your last turn\":\n%s", body)
	}
	var out []catchUpLine
	for _, m := range reCatchUpLine.FindAllStringSubmatch(sec, -1) {
		v, _ := strconv.ParseInt(m[1], 10, 64)
		out = append(out, catchUpLine{Version: v, Text: html.UnescapeString(m[2])})
	}
	return out
}

// TestCatchUpTellsExactlyTheSeatsUnseenHistory plays random whole games of
// both games in the three languages; seat 0 opens its page now and then.
// Each time, "Since your last turn" holds exactly the seat's redacted
// history lines after the later of its last move and its previous visit
// (a reload at the same version shows the same lines) but table talk and
// the creation, and never the unredacted sentence of an event the seat
// sees redacted. Forced steps played after the seat's move are told.
func TestCatchUpTellsExactlyTheSeatsUnseenHistory(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	engines := map[string]engine.Game{"lords-of-scotland": lg, "swords-and-bagpipes": bagpipes.Game{}}
	cases := []struct {
		game string
		n    int
		lang string
	}{
		{"lords-of-scotland", 2, "en"}, {"lords-of-scotland", 3, "fr"}, {"lords-of-scotland", 4, "it"},
		{"swords-and-bagpipes", 3, "en"}, {"swords-and-bagpipes", 4, "fr"}, {"swords-and-bagpipes", 5, "it"},
	}
	ctx := context.Background()
	marks := map[string]int{}
	for ci, tc := range cases {
		t.Run(fmt.Sprintf("%s-%d-%s", tc.game, tc.n, tc.lang), func(t *testing.T) {
			id := e.createGame(tc.game, tc.n, tc.lang, "")
			names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}[:tc.n]
			const me = 0
			b := e.browser()
			tok := tokens.Seat(secret, id, me, 0)
			rng := rand.New(rand.NewPCG(uint64(ci), 14))
			var seen, since, lastMove int64
			visits, lines, marked := 0, 0, 0
			visit := func() {
				var body string
				if visits == 0 {
					body = b.open(id, me).Body
				} else {
					body = b.get("/play/" + id).Body
				}
				visits++
				v := e.version(id)
				if v > seen {
					since, seen = seen, v
				}
				from := max(since, lastMove)
				h, err := e.svc.History(ctx, id, tok)
				if err != nil {
					t.Fatal(err)
				}
				var want []catchUpLine
				for _, r := range h.Events {
					// Table talk has its own section, the creation says nothing new.
					if r.Version > from && r.Version <= v && r.Type != "pbem.chat" && r.Type != "pbem.created" {
						want = append(want, catchUpLine{Version: r.Version, Text: r.Summary})
					}
				}
				got := catchUpOf(t, body)
				if title := map[string]string{"en": "Since your last turn", "fr": "Depuis votre dernier tour", "it": "Dal tuo ultimo turno"}[tc.lang]; !strings.Contains(body, ">"+title+"</h2>") {
					t.Fatalf("the %s page lacks %q", tc.lang, title)
				}
				full := fullSentences(t, e, engines[tc.game], id, names, tc.lang)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("visit %d at v%d (since v%d, last move v%d):\n got %v\nwant %v", visits, v, since, lastMove, got, want)
				}
				if !strings.Contains(body, `<noscript><p><a href="/play/`+id+`">`) {
					t.Fatal("the page has no reload link for a browser without JavaScript")
				}
				if len(want) == 0 && !strings.Contains(body, `<p class="meta">`) {
					t.Errorf("an empty \"Since your last turn\" says nothing")
				}
				for _, l := range got {
					if f, ok := full[l.Version]; ok && f != l.Text && strings.Contains(body, html.EscapeString(f)) {
						t.Fatalf("the page of seat %d tells v%d unredacted: %q", me, l.Version, f)
					}
				}
				if tc.game == "lords-of-scotland" {
					for q := range tc.n {
						for r := range hiddenFrom(t, e, id, q, me) {
							if strings.Contains(body, `data-rank="`+r+`"`) {
								t.Fatalf("the page of seat %d shows card %s of seat %d", me, r, q)
							}
						}
					}
				}
				lines += len(got)
				marked += len(reChanged.FindAllString(body, -1))
			}
			visit()
			for n := 0; n < 400; n++ {
				seat := e.toMove(id)
				if seat < 0 {
					break
				}
				v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
				if err != nil {
					t.Fatal(err)
				}
				mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
					t.Fatalf("move %d: %v", n, err)
				}
				if seat == me {
					// The seat's last move is its own last event: a forced
					// step the service played after it (for any seat, "played
					// for X: the only move") is news the page tells.
					evs, err := e.store.ReadStream(ctx, id, v.Version+1)
					if err != nil {
						t.Fatal(err)
					}
					for _, ev := range evs {
						if ev.Meta.Actor == "seat:0" {
							lastMove = ev.Version
						}
					}
				}
				switch rng.IntN(6) {
				case 0:
					visit()
				case 1:
					visit()
					visit() // a reload at the same version
				}
			}
			if e.toMove(id) >= 0 {
				t.Fatal("the game did not end")
			}
			visit()
			if visits < 5 || lines == 0 {
				t.Errorf("%d visits, %d lines: the game tested too little", visits, lines)
			}
			marks[tc.game] += marked
			t.Logf("%d visits, %d lines, %d marked cards", visits, lines, marked)
		})
	}
	for g := range engines {
		if marks[g] == 0 {
			t.Errorf("no page of %s marked a changed card", g)
		}
	}
}

// fullSentences tells every engine event of game id unredacted, by
// version: what no seat's page may say of an event it sees redacted.
func fullSentences(t testing.TB, e *pageEnv, eng engine.Game, id string, names []string, lang string) map[int64]string {
	t.Helper()
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, ev := range evs {
		if pbemevent.IsServiceEvent(ev.Type) {
			continue
		}
		x, err := eng.DecodeEvent(ev.Type, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		out[ev.Version] = eng.Describe(x, names, lang)
	}
	return out
}

// A malformed ?from= is refused with a clear error and records nothing.
func TestCatchUpRefusesABadFrom(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame("lords-of-scotland", 2, "en", "")
	b := e.browser()
	b.open(id, 0)
	for _, from := range []string{"x", "-1", "1e3"} {
		p := b.get("/play/" + id + "?from=" + from)
		if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "from:") {
			t.Errorf("?from=%s: %d\n%s", from, p.Status, p.Body)
		}
	}
}

// The audit page tells each event in sentences: no internal event name
// shows until its raw record is opened.
func TestAuditPageTellsEventsInSentences(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, tc := range []struct{ game, lang, want string }{
		{"lords-of-scotland", "fr", "Ann"}, {"swords-and-bagpipes", "it", "Bob"},
	} {
		id := e.createGame(tc.game, 3, tc.lang, "")
		e.playToEnd(id, 5, 2000)
		a := e.browser().get("/games/" + id + "/audit")
		if a.Status != http.StatusOK {
			t.Fatalf("audit: %d\n%s", a.Status, a.Body)
		}
		evs, err := e.store.ReadStream(context.Background(), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		sums := regexp.MustCompile(`(?s)<summary>(.*?)</summary>`).FindAllStringSubmatch(a.Body, -1)
		if len(sums) != len(evs) {
			t.Fatalf("%d summaries for %d events", len(sums), len(evs))
		}
		for i, s := range sums {
			text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(s[1], ""))
			for _, ev := range evs {
				if strings.Contains(text, ev.Type) {
					t.Fatalf("event %d's line names the event type %s: %q", i+1, ev.Type, text)
				}
			}
			what := regexp.MustCompile(`<span class="what">([^<]*)</span>`).FindStringSubmatch(s[1])
			if what == nil || len(strings.Fields(what[1])) < 2 {
				t.Errorf("event %d is told in %q", i+1, text)
			}
		}
		// The raw record is one tap away, inside each event's <details>.
		if !strings.Contains(a.Body, "<code>"+evs[1].Type+"</code>") {
			t.Errorf("the audit lacks the raw type %s", evs[1].Type)
		}
		if !strings.Contains(a.Body, tc.want) {
			t.Errorf("the audit names no player %s", tc.want)
		}
	}
}

var reCatchUpGroup = regexp.MustCompile(`(?s)<h3>([^<]*)</h3>\s*<ul>(.*?)</ul>`)

// catchUpGroupsOf reads a play page's "Since your last turn" as its
// headings, each with its lines joined by " | ".
func catchUpGroupsOf(t testing.TB, body string) []string {
	t.Helper()
	var out []string
	for _, m := range reCatchUpGroup.FindAllStringSubmatch(reCatchUp.FindString(body), -1) {
		var lines []string
		for _, l := range reCatchUpLine.FindAllStringSubmatch(m[2], -1) {
			lines = append(lines, html.UnescapeString(l[2]))
		}
		out = append(out, html.UnescapeString(m[1])+": "+strings.Join(lines, " | "))
	}
	return out
}

// TestCatchUpHeadsTheMusterAsNoTurn: players accepting a game before its
// first turn are told in "Since your last turn" under the muster's heading
// ("Before the first turn"), not as their turn ("Tour de jeu : Cid",
// which a player reading French was shown), and the organiser handing a
// seat to a bot is the game's, not the turn of the seat it names.
func TestCatchUpHeadsTheMusterAsNoTurn(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id, admin := musterGame(t, e, "")
	if err := e.svc.AnswerAs(ctx, id, 2, true, "c"); err != nil {
		t.Fatal(err)
	}
	if got, want := catchUpGroupsOf(t, e.browser().open(id, 1).Body), []string{"Avant le premier tour: Cid jouera."}; !slices.Equal(got, want) {
		t.Errorf("Bob (French) reads %q, want %q", got, want)
	}
	if err := e.svc.AnswerAs(ctx, id, 1, true, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.SeatBot(ctx, id, admin, 2, "easy"); err != nil {
		t.Fatal(err)
	}
	got := catchUpGroupsOf(t, e.browser().open(id, 0).Body)
	want := []string{"Before the first turn: Cid will play. | Bob will play."}
	if len(got) != 2 || got[0] != want[0] || !strings.HasPrefix(got[1], "The game: ") {
		t.Errorf("Ann reads %q, want %q then the game's hand-off", got, want)
	}
}
