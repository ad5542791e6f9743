package api_test

import (
	"context"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

// TestTimeZoneFollowsThePerson: a person's time zone is theirs, not a
// seat's (issue #43). Told in one game, it is every seat's of their
// address, in every game; a seat given to another person takes that
// person's zone, and the person replaced keeps theirs in the game they
// play on; a change made later follows them again.
func TestTimeZoneFollowsThePerson(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	a := e.createGame(testgame.Name, 3, "en", "")
	b := e.createGame(testgame.Name, 3, "en", "")
	dee, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Organiser: play.Organiser{Name: "Dee", Email: "dee@example.org"},
		Players: []play.NewPlayer{{Name: "Dee", Email: "dee@example.org"}, {Name: "Eve", Email: "eve@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	seats := notifypg.NewSeats(e.pool, notifypg.Histories{})
	zones := func() map[string]string {
		t.Helper()
		reqs := []notify.StoryRequest{{GameID: a, Seat: 0}, {GameID: b, Seat: 0}, {GameID: a, Seat: 2}, {GameID: b, Seat: 2}, {GameID: dee.ID, Seat: 0}}
		for i := range reqs {
			reqs[i].Kind = outbox.Link
		}
		st, err := seats.Stories(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for i, n := range []string{"a0", "b0", "a2", "b2", "dee"} {
			out[n] = st[i].Zone
		}
		return out
	}
	set := func(id string, seat int, zone string) {
		t.Helper()
		if err := seats.SetZone(ctx, id, seat, zone); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		got := zones()
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: zone of %s is %q, want %q (all: %v)", when, k, got[k], w, got)
			}
		}
	}
	set(a, 0, "Europe/Paris")
	set(b, 2, "Asia/Tokyo")
	set(dee.ID, 0, "America/New_York")
	check("told once each", map[string]string{"a0": "Europe/Paris", "b0": "Europe/Paris", "a2": "Asia/Tokyo", "b2": "Asia/Tokyo", "dee": "America/New_York"})

	// Dee takes Cid's seat in game a: Dee's zone, not Cid's; Cid keeps
	// Tokyo in game b.
	if _, err := e.svc.ReplacePlayer(ctx, a, tokens.Admin(secret, a, 0), 2, "Dee", "dee@example.org"); err != nil {
		t.Fatal(err)
	}
	check("after the replacement", map[string]string{"a2": "America/New_York", "b2": "Asia/Tokyo", "dee": "America/New_York"})

	// Dee moves to Rome, told in game a: her seat of her own game follows.
	set(a, 2, "Europe/Rome")
	check("after Dee's change", map[string]string{"a2": "Europe/Rome", "dee": "Europe/Rome", "b2": "Asia/Tokyo", "a0": "Europe/Paris"})
}

// TestLanguageFollowsThePerson: a language a person chooses on one seat is
// the language of their seats in their other games going on, of a game
// created for them with no language of their own, and of a seat they take
// over as a replacement; the others read their games' language (issue #43).
func TestLanguageFollowsThePerson(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	a := e.createGame(testgame.Name, 3, "en", "")
	b := e.createGame(testgame.Name, 3, "en", "")
	reads := func(id string, seat int) string {
		t.Helper()
		for gen := range 3 { // a replaced seat's link is of a later generation
			if rs, err := e.svc.Reply(ctx, id, seat, tokens.ReplyTag(secret, id, seat, gen), 0); err == nil {
				return rs.Language
			}
		}
		t.Fatalf("no reply address opens seat %d of %s", seat, id)
		return ""
	}
	if err := e.svc.SetLanguage(ctx, a, tokens.Seat(secret, a, 0, 0), "it", "lang-1"); err != nil {
		t.Fatal(err)
	}
	if got := [...]string{reads(a, 0), reads(b, 0), reads(b, 1)}; got != [...]string{"it", "it", "en"} {
		t.Fatalf("Ann in a and b, Bob in b read %v, want it, it, en", got)
	}
	c := e.createGame(testgame.Name, 3, "en", "")
	if got := [...]string{reads(c, 0), reads(c, 1)}; got != [...]string{"it", "en"} {
		t.Errorf("in a new game Ann and Bob read %v, want it, en", got)
	}
	d, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Language: "fr", Organiser: play.Organiser{Name: "Bob", Email: "bob@example.org"},
		Players: []play.NewPlayer{{Name: "Bob", Email: "bob@example.org"}, {Name: "Eve", Email: "eve@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ReplacePlayer(ctx, d.ID, d.AdminToken, 1, "Ann", "ann@example.org"); err != nil {
		t.Fatal(err)
	}
	if got := [...]string{reads(d.ID, 0), reads(d.ID, 1)}; got != [...]string{"fr", "it"} {
		t.Errorf("after Ann replaces Eve, Bob and Ann read %v, want fr, it", got)
	}
	// Ann changes her mind in game b: every game of hers follows.
	if err := e.svc.SetLanguage(ctx, b, tokens.Seat(secret, b, 0, 0), "fr", "lang-2"); err != nil {
		t.Fatal(err)
	}
	if got := [...]string{reads(a, 0), reads(c, 0), reads(d.ID, 1)}; got != [...]string{"fr", "fr", "fr"} {
		t.Errorf("after Ann's change her seats read %v, want fr everywhere", got)
	}
}
