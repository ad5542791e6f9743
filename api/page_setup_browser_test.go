package api_test

import (
	"context"
	"encoding/json"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/notify/smtpsink"
)

// pick chooses value in the <select> sel as a user does: the value, then
// the change event the page listens to.
func pick(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(function () { var s = document.querySelector(` + jsString(sel) + `);
		s.value = ` + jsString(value) + `; s.dispatchEvent(new Event("change", {bubbles: true})); })()`)
}

// scripted waits until the page's script has run (it marks the page "js"
// once it listens to the lobby's selects): a select changed before that
// changes nothing, and the script's first layout change would move what a
// click aims at. The script is deferred, so the page's elements are
// visible before it runs.
func scripted() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Poll[bool](`document.readyState === "complete" && document.documentElement.classList.contains("js")`,
			chromedp.WithPollingTimeout(20*time.Second))(ctx, tg)
		return err
	})
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserOrganiserSetsUpSwordsAndBagpipes is the organiser's path in
// a real browser, in French: Swords and Bagpipes chosen in the lobby,
// whose form then offers its variants for the number of players; a bad
// combination (the 3-player variant with the long game) is refused beside
// its field, in French; a game for five with two variants (Stay Home! and
// Together for Scotland) is proposed by clicks; only the organiser's
// confirmation link reaches the SMTP server until the organiser presses
// its button; then the five invitations and the admin link arrive.
func TestBrowserOrganiserSetsUpSwordsAndBagpipes(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	names := []string{"Anne", "Bruno", "Chloé", "Denis", "Élise"}
	email := func(i int) string { return []string{"anne", "bruno", "chloe", "denis", "elise"}[i] + "@example.org" }
	fill := func(from, to int) []chromedp.Action[chromedp.Void] {
		var as []chromedp.Action[chromedp.Void]
		for i := from; i < to; i++ {
			n := string(rune('1' + i))
			as = append(as, chromedp.SendKeys(chromedp.CSS(`input[name="name`+n+`"]`), names[i]),
				chromedp.SendKeys(chromedp.CSS(`input[name="email`+n+`"]`), email(i)))
		}
		return as
	}
	tb := tab(t, root, 1280, 1000, false)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.Navigate(e.url + "/?lang=fr"),
		chromedp.WaitVisible(chromedp.CSS("form.lobby")),
		scripted(),
		pick("#game", "swords-and-bagpipes"),
		chromedp.WaitVisible(chromedp.CSS("#opt-together")),
		scripted(),
		pick("#players", "3"),
		chromedp.WaitVisible(chromedp.CSS("#opt-three_player")),
		scripted(),
	}
	steps = append(steps, fill(0, 3)...)
	steps = append(steps,
		chromedp.SendKeys(chromedp.CSS(`input[name="organiser_email"]`), email(0)),
		chromedp.Click(chromedp.CSS(`input[name="opt_three_player"]`)),
		chromedp.Click(chromedp.CSS(`input[name="opt_long_game"]`)),
		chromedp.Click(chromedp.CSS("button.primary")),
		chromedp.WaitVisible(chromedp.CSS("#opt-long_game .fielderr")),
	)
	within(t, tb, 30*time.Second, "a bad combination", steps...)
	msg := eval[string](t, tb, `document.querySelector("#opt-long_game .fielderr").textContent`)
	if !strings.Contains(msg, "cartes utilisables avec ces options") {
		t.Fatalf("the error beside long_game is %q, want it in French", msg)
	}
	if n := eval[int](t, tb, `document.querySelectorAll(".fielderr").length`); n != 1 {
		t.Errorf("%d field errors, want 1 (beside long_game)", n)
	}
	if v := eval[string](t, tb, `document.querySelector('input[name="name2"]').value`); v != names[1] {
		t.Errorf("the refused form lost its names: %q", v)
	}
	if n := eval[int](t, tb, a11yProblems); n != 0 {
		t.Errorf("the lobby has %d controls without a label or buttons outside forms", n)
	}
	screenshot(t, tb, shots, "lobby-bad-combination-fr.png")

	// Five players: the form offers Stay Home! now; two variants by clicks.
	steps = []chromedp.Action[chromedp.Void]{
		scripted(),
		pick("#players", "5"),
		chromedp.WaitVisible(chromedp.CSS("#opt-stay_home")),
		scripted(),
	}
	steps = append(steps, fill(3, 5)...)
	steps = append(steps,
		chromedp.Click(chromedp.CSS(`input[name="opt_stay_home"]`)),
		chromedp.Click(chromedp.CSS(`input[name="opt_together"]`)),
		// The long game, kept from the refused form, is unchecked.
		chromedp.Click(chromedp.CSS(`input[name="opt_long_game"]`)),
	)
	within(t, tb, 30*time.Second, "five players", steps...)
	if n := eval[int](t, tb, `document.querySelectorAll("#opt-three_player").length`); n != 0 {
		t.Error("the 3-player variant is offered to five players")
	}
	if n := eval[int](t, tb, `document.querySelectorAll(".seatrow").length`); n != 5 {
		t.Errorf("%d player rows for five players", n)
	}
	screenshot(t, tb, shots, "lobby-five-players-fr.png")
	within(t, tb, 20*time.Second, "propose",
		chromedp.Click(chromedp.CSS("button.primary")),
		chromedp.WaitVisible(chromedp.CSS("#proposed")),
	)
	screenshot(t, tb, shots, "proposed-fr.png")

	// Only the organiser's confirmation reaches the SMTP server.
	var games int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&games); err != nil || games != 0 {
		t.Fatalf("%d games before the confirmation (%v)", games, err)
	}
	got := deliverOutbox(t, e.pool, e.url, 1)
	p, err := smtpsink.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if to, _ := mail.ParseAddress(p.Header.Get("To")); to == nil || to.Address != email(0) || !strings.Contains(p.Header.Get("Subject"), "Confirmez") {
		t.Fatalf("first email: to %q, subject %q", p.Header.Get("To"), p.Header.Get("Subject"))
	}
	i := strings.Index(p.Text, e.url+"/confirm/")
	if i < 0 {
		t.Fatalf("no confirmation link in:\n%s", p.Text)
	}
	within(t, tb, 20*time.Second, "confirm",
		chromedp.Navigate(strings.Fields(p.Text[i:])[0]),
		chromedp.WaitVisible(chromedp.CSS("#confirm")),
	)
	screenshot(t, tb, shots, "confirm-fr.png")
	within(t, tb, 20*time.Second, "press confirm",
		chromedp.Click(chromedp.CSS("#confirm")),
		chromedp.WaitVisible(chromedp.CSS("#confirmed")),
	)

	// Now the five invitations and the organiser's admin link.
	invited := map[string]bool{}
	admin := 0
	for _, m := range deliverOutbox(t, e.pool, e.url, 6) {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.Contains(p.Text, e.url+"/admin/") && to.Address == email(0):
			admin++
		case strings.Contains(p.Text, e.url+"/play/") && strings.Contains(p.Text, e.url+"/mail/block?token="):
			invited[to.Address] = true
		default:
			t.Errorf("unexpected email to %s:\n%s", to.Address, p.Text)
		}
	}
	if len(invited) != 5 || admin != 1 {
		t.Fatalf("invited %v, %d admin links", invited, admin)
	}
	var opts string
	var players int
	if err := e.pool.QueryRow(context.Background(), `SELECT options::text, jsonb_array_length(players) FROM games`).Scan(&opts, &players); err != nil {
		t.Fatal(err)
	}
	var o map[string]bool
	if err := json.Unmarshal([]byte(opts), &o); err != nil || len(o) != 2 || !o["stay_home"] || !o["together"] || players != 5 {
		t.Fatalf("the game has options %s and %d players", opts, players)
	}
}
