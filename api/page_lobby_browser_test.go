package api_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
)

// TestBrowserLobbyDescribesGamesAndBotSeats: the lobby in chromium, on a
// phone (390x844) and a desktop, in English, French and Italian (issue
// #43): under the game's list, a line says what the chosen game is about,
// with a link to its rules in short, for both games; a seat handed to a
// bot shows no name, email or language field (and a person's seat shows
// them again); the game is created with the bot named "Bot 2" in the
// page's language. axe finds nothing serious or critical with a bot seat.
// Every select's options fit its width (a trial found "the deadlines wait
// for them (up to 14 day" cut off on a phone); a refused address is told
// right after its field, which shows it by more than colour.
func TestBrowserLobbyDescribesGamesAndBotSeats(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	about := map[string]string{"en": "The rules in short", "fr": "Les règles en bref", "it": "Le regole in breve"}
	for _, lang := range []string{"en", "fr", "it"} {
		for _, vp := range phoneAndDesktop {
			name := lang + "-" + strconv.FormatInt(vp.w, 10)
			tb := tab(t, root, vp.w, vp.h, vp.mobile)
			within(t, tb, 30*time.Second, name+" lobby", chromedp.Navigate(e.url+"/?lang="+lang), chromedp.WaitVisible(chromedp.CSS("#game-about")))
			for _, g := range []string{lords.Name, bagpipes.Name} {
				if eval[string](t, tb, `document.getElementById("game").value`) != g {
					within(t, tb, 30*time.Second, name+" choose "+g,
						chromedp.Evaluate[chromedp.Void](`document.getElementById("game-about").dataset.old = "1"; setTimeout(function () { var s = document.getElementById("game"); s.value = "`+g+`"; s.dispatchEvent(new Event("change")); }, 0)`),
						chromedp.WaitReady(chromedp.CSS(`#game-about:not([data-old])`)))
				}
				line := eval[string](t, tb, `document.getElementById("game-about").innerText`)
				href := eval[string](t, tb, `document.querySelector("#game-about a").getAttribute("href")`)
				if len(line) < len(about[lang])+40 || !strings.Contains(line, about[lang]) || href != "/help/"+g+"?lang="+lang {
					t.Errorf("%s %s: the game's line %q, link %q", name, g, line, href)
				}
			}
			visible := `(function () { var r = document.querySelectorAll(".seatrow")[1];
  return ["name2", "email2", "lang2"].filter(function (n) { var f = r.querySelector("[name=" + n + "]"); return f && f.offsetParent !== null; }).length; })()`
			if n := eval[int](t, tb, visible); n != 3 {
				t.Fatalf("%s: a person's seat shows %d of its 3 fields", name, n)
			}
			eval[bool](t, tb, `(function () { var s = document.querySelector("select[name=kind2]"); s.value = "easy"; s.dispatchEvent(new Event("change")); return true; })()`)
			if n := eval[int](t, tb, visible); n != 0 {
				t.Errorf("%s: a bot's seat shows %d name, email or language fields", name, n)
			}
			axeClean(t, tb, src, name+" lobby with a bot seat")
			keepShot(t, tb, shots, "lobby-"+name+".png")
			eval[bool](t, tb, `(function () { var s = document.querySelector("select[name=kind2]"); s.value = "person"; s.dispatchEvent(new Event("change")); return true; })()`)
			if n := eval[int](t, tb, visible); n != 3 {
				t.Errorf("%s: a seat given back to a person shows %d of its 3 fields", name, n)
			}
			if cut := eval[[]string](t, tb, selectsCut); len(cut) > 0 {
				t.Errorf("%s: options cut off in their select: %q", name, cut)
			}
			refusedSeat(t, tb, src, shots, name, vp.mobile)
			release(tb)
		}
	}
	// A game with a bot seat, from the form as chromium sends it.
	tb := tab(t, root, 390, 844, true)
	within(t, tb, 30*time.Second, "the lobby", chromedp.Navigate(e.url+"/?lang=it"), chromedp.WaitVisible(chromedp.CSS("#game-about")))
	eval[bool](t, tb, `(function () {
  var s = document.querySelector("select[name=kind2]"); s.value = "easy"; s.dispatchEvent(new Event("change"));
  document.querySelector("[name=name1]").value = "Ann"; document.querySelector("[name=email1]").value = "ann@example.org";
  document.getElementById("organiser_email").value = "ann@example.org"; return true; })()`)
	within(t, tb, 30*time.Second, "create",
		chromedp.Evaluate[chromedp.Void](`setTimeout(function () { document.querySelector("form.lobby button.primary").click(); }, 0)`),
		chromedp.WaitVisible(chromedp.CSS("#proposed")))
	var raw []byte
	if err := e.pool.QueryRow(context.Background(), `SELECT request FROM proposals`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var req play.CreateGame
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Players) != 2 || req.Players[1] != (play.NewPlayer{Name: "Bot 2", Bot: "easy"}) || req.Players[0].Email != "ann@example.org" {
		t.Errorf("the players proposed: %+v", req.Players)
	}
}

// selectsCut lists the options of the lobby's selects whose text is wider
// than their select shows (its width less its padding and arrow).
const selectsCut = `(function () {
  var c = document.createElement("canvas").getContext("2d"), out = [];
  document.querySelectorAll("form.lobby select").forEach(function (s) {
    if (s.offsetParent === null) { return; }
    var cs = getComputedStyle(s);
    c.font = cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
    Array.prototype.forEach.call(s.options, function (o) {
      if (c.measureText(o.text).width > s.clientWidth - 36) { out.push(s.name + ": " + o.text); }
    });
  });
  return out; })()`

// refusedSeat sends the lobby with player 2's address lacking its
// domain's dot: the message comes right after the address's field (on a
// phone, before the seat's language), and the field shows it by a thick
// red border, not by colour alone; axe finds nothing serious.
func refusedSeat(t *testing.T, tb context.Context, src, shots, name string, phone bool) {
	t.Helper()
	eval[bool](t, tb, `(function () {
  [["name1", "Ann"], ["email1", "ann@example.org"], ["name2", "Bob"], ["email2", "bob@example"], ["organiser_email", "ann@example.org"]].forEach(function (f) {
    document.querySelector("[name=" + f[0] + "]").value = f[1]; });
  return true; })()`)
	within(t, tb, 30*time.Second, name+" refused",
		chromedp.Evaluate[chromedp.Void](`setTimeout(function () { document.querySelector("form.lobby button.primary").click(); }, 0)`),
		chromedp.WaitVisible(chromedp.CSS("#err-email2")))
	got := eval[[]float64](t, tb, `(function () {
  var f = document.getElementById("email2").getBoundingClientRect(), e = document.getElementById("err-email2").getBoundingClientRect(),
      l = document.querySelector("[name=lang2]").getBoundingClientRect();
  return [e.top - f.bottom, l.top - e.bottom, parseFloat(getComputedStyle(document.getElementById("email2")).borderTopWidth)]; })()`)
	if got[0] < 0 || got[0] > 30 || (phone && got[1] < 0) {
		t.Errorf("%s: the address's message is %.0f px under its field and %.0f px above the seat's language", name, got[0], got[1])
	}
	if got[2] < 3 {
		t.Errorf("%s: the refused field's border is %.1f px: it looks like the others", name, got[2])
	}
	axeClean(t, tb, src, name+" lobby refused")
	eval[bool](t, tb, `document.getElementById("email2").scrollIntoView({block: "center"}), true`)
	keepShot(t, tb, shots, "lobby-refused-"+name+".png")
}
