package bagpipes

import (
	"strings"
	"testing"

	"pbem/engine"
)

// TestDescribeHidesSecrets: no sentence names a drawn card, even told
// from the whole event; a secret side choice is told only from the
// chooser's own version ("Bob secretly chooses to support England.": a
// user trial's Alice read "Alice has made their choice." of her own),
// never from the version any other seat or the public sees (Redact).
func TestDescribeHidesSecrets(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	choice := ChoiceMade{Seat: 1, Side: "england", Dagger: "dagger-3a", Daggers: 3}
	for lang, want := range map[string]string{"en": "Bob secretly chooses to support England.", "fr": "Bob choisit secrètement de soutenir l'Angleterre.",
		"it": "Bob sceglie in segreto di sostenere l'Inghilterra."} {
		if got := (Game{}).Describe(Game{}.Redact(choice, 1), names, lang); got != want {
			t.Errorf("%s: the chooser's own line is %q, want %q", lang, got, want)
		}
	}
	secret := []engine.Event{
		Game{}.Redact(choice, engine.Spectator), Game{}.Redact(choice, 0), Game{}.Redact(choice, 3),
		CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1,
			Draws: []Draw{{Seat: 2, Deck: "bagpipe", Card: "bruces-trick"}}},
		Awards{Gold: []int{1, 2, 3, 4}, Units: []int{0, 0, 0, 0}, Draws: []Draw{{Seat: 1, Deck: "dagger", Card: "dagger-3b", Daggers: 3}}},
	}
	for _, e := range secret {
		for _, lang := range []string{"en", "fr", "it", "de"} {
			d := Game{}.Describe(e, names, lang)
			for _, leak := range []string{"england", "England", "Angleterre", "Inghilterra", "dagger-3", "Bruce", "3 dagger"} {
				if strings.Contains(d, leak) {
					t.Errorf("%s description %q of %s reveals %q", lang, d, e.EventType(), leak)
				}
			}
		}
	}
	if d := (Game{}).Describe(BadgePassed{From: 0, To: 2}, names, "fr"); d != "Ann passe la médaille d'honneur à Cid." {
		t.Errorf("French description: %q", d)
	}
	if d := (Game{}).Describe(Battle{Scotland: 12, England: 12, Winner: "scotland"}, names, "it"); !strings.Contains(d, "Scozia") {
		t.Errorf("Italian description: %q", d)
	}
}

func TestDescribeWithoutNames(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "Player 1 gives the badge of honour to Player 3.",
		"fr": "Joueur 1 passe la médaille d'honneur à Joueur 3.",
		"it": "Giocatore 1 passa la medaglia d'onore a Giocatore 3.",
	} {
		if got := (Game{}).Describe(BadgePassed{From: 0, To: 2}, nil, lang); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
