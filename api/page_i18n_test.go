package api

import (
	"testing"
	"time"
)

func TestPageCatalogCheck(t *testing.T) {
	t.Parallel()
	if err := pageCatalog.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestPagePlurals checks the counted texts of the pages in each language:
// one form for 1 (and for 0 in French), another for more.
func TestPagePlurals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, key string
		n         int
		want      string
	}{
		{"en", "lobby.hours", 1, "1 hour"}, {"en", "lobby.hours", 12, "12 hours"},
		{"fr", "lobby.hours", 1, "1 heure"}, {"fr", "lobby.hours", 12, "12 heures"},
		{"it", "lobby.hours", 1, "1 ora"}, {"it", "lobby.hours", 12, "12 ore"},
		{"en", "lobby.days", 1, "1 day"}, {"en", "lobby.days", 3, "3 days"},
		{"fr", "lobby.days", 1, "1 jour"}, {"fr", "lobby.days", 3, "3 jours"},
		{"it", "lobby.days", 1, "1 giorno"}, {"it", "lobby.days", 3, "3 giorni"},
		{"en", "lobby.count", 1, "1 player"}, {"en", "lobby.count", 4, "4 players"},
		{"fr", "lobby.count", 1, "1 joueur"}, {"fr", "lobby.count", 4, "4 joueurs"},
		{"it", "lobby.count", 1, "1 giocatore"}, {"it", "lobby.count", 4, "4 giocatori"},
		{"en", "lords.draw_pile", 1, "Draw pile: 1 card."}, {"en", "lords.draw_pile", 0, "Draw pile: 0 cards."},
		{"fr", "lords.draw_pile", 1, "Pioche\u00a0: 1 carte."}, {"fr", "lords.draw_pile", 0, "Pioche\u00a0: 0 carte."},
		{"fr", "lords.draw_pile", 2, "Pioche\u00a0: 2 cartes."},
		{"it", "lords.draw_pile", 1, "Mazzo: 1 carta."}, {"it", "lords.draw_pile", 0, "Mazzo: 0 carte."},
		{"en", "lords.discard_pile", 1, "Discard pile: 1 card."}, {"en", "lords.discard_pile", 9, "Discard pile: 9 cards."},
		{"fr", "lords.discard_pile", 1, "Défausse\u00a0: 1 carte."}, {"fr", "lords.discard_pile", 9, "Défausse\u00a0: 9 cartes."},
		{"it", "lords.discard_pile", 1, "Scarti: 1 carta."}, {"it", "lords.discard_pile", 9, "Scarti: 9 carte."},
	}
	for _, c := range cases {
		if got := pageCatalog.T(c.lang, c.key, c.n); got != c.want {
			t.Errorf("%s %s %d = %q, want %q", c.lang, c.key, c.n, got, c.want)
		}
	}
}

// TestPageElision checks French elision where a name follows de, que, le
// or la, and that the other languages and consonants are left alone.
func TestPageElision(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, key, name, want string
	}{
		{"fr", "play.waiting", "Élodie", "En attente d'Élodie."},
		{"fr", "play.waiting", "Ann, Bob", "En attente d'Ann, Bob."},
		{"fr", "play.waiting", "Hélène", "En attente d'Hélène."},
		{"fr", "play.waiting", "Bob", "En attente de Bob."},
		{"fr", "me.waiting", "Élodie", "En attente d'Élodie"},
		{"fr", "lords.army_of", "Ugo", "Armée d'Ugo"},
		{"fr", "lords.army_of", "Bob", "Armée de Bob"},
		{"it", "play.waiting", "Élodie", "In attesa di Élodie."},
		{"en", "play.waiting", "Élodie", "Waiting for Élodie."},
	}
	for _, c := range cases {
		if got := pageCatalog.T(c.lang, c.key, c.name); got != c.want {
			t.Errorf("%s %s %q = %q, want %q", c.lang, c.key, c.name, got, c.want)
		}
	}
}

// TestPageTellTimeSpeaksEachLanguage checks the days and months of a
// deadline come from the catalog in the page's language.
func TestPageTellTimeSpeaksEachLanguage(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		lang string
		at   time.Time
		want string
	}{
		{"en", now.Add(2 * time.Hour), "today 10:00"},
		{"fr", now.Add(26 * time.Hour), "demain 10:00"},
		{"it", now.Add(3 * 24 * time.Hour), "sabato 08:00"},
		{"fr", now.Add(10 * 24 * time.Hour), "samedi 5 décembre 08:00"},
	}
	for _, c := range cases {
		if got := tellTime(pageCatalog.In(c.lang), c.at, now, time.UTC).Text; got != c.want {
			t.Errorf("%s %v = %q, want %q", c.lang, c.at, got, c.want)
		}
	}
}
