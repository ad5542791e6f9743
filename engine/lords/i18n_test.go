package lords

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/i18n/i18ntest"
)

// The catalog has the same keys and arguments in en, fr and it.
func TestCatalogCheck(t *testing.T) {
	if err := texts.Check(); err != nil {
		t.Fatal(err)
	}
}

// sameWords are, per language, the English catalog's words that may
// appear in its texts (each must be a word of that language's catalog
// too, so the list cannot hide a missing translation): the clans' names
// (proper names, the same in every rulebook) and "clan" (a word of all
// three languages); in French, "face" (face visible), "place",
// "position", "total" and "initiative" (le jeton Initiative); in Italian, "in",
// "no" (usa o no) and "supporter" (the Italian rulebook's word).
var sameWords = map[string][]string{
	"fr": {"makgill", "wemyss", "fergusson", "cockburn", "cochrane", "bruce", "clan", "face", "place", "position", "total", "initiative"},
	"it": {"makgill", "wemyss", "fergusson", "cockburn", "cochrane", "bruce", "clan", "in", "no", "supporter"},
}

// Over random whole games in French and Italian, no label, description,
// prompt, power, explanation or summary holds a word of the English
// catalog, and no French text misses an elision before a name.
func TestNoEnglishInOtherLanguages(t *testing.T) {
	for _, lang := range []string{"fr", "it"} {
		if bad := i18ntest.AllowedWords(texts, lang, sameWords[lang]); len(bad) > 0 {
			t.Fatalf("%s: allowed words that are not the language's own: %v", lang, bad)
		}
	}
	g := newGame(t)
	viewTexts := func(st engine.State) []string {
		s := st.(*State)
		var out []string
		for seat := range s.Players() {
			v := s.View(seat).(View)
			if v.Pending != nil {
				out = append(out, v.Pending.Text)
			}
			for _, c := range v.Hand {
				out = append(out, c.Power)
			}
			for _, e := range s.Explain(seat, s.Lang) {
				out = append(out, e.Text)
			}
		}
		return out
	}
	for i, lang := range []string{"fr", "it", "fr", "it", "fr", "it"} {
		setup := engine.Setup{Players: 2 + i%4, Seed: seedOf(uint64(100 + i)), Language: lang,
			Names: []string{"Élodie", "Ugo", "Chiara", "Hélène", "Olivier"}[:2+i%4], Options: []byte(`{"bruce":true}`)}
		if err := enginetest.CheckTranslated(g, texts, sameWords[lang], setup, uint64(i), viewTexts); err != nil {
			t.Errorf("%s game %d: %v", lang, i, err)
		}
	}
	// The check finds an English text.
	if bad := i18ntest.UntranslatedWords(texts, []string{"Ugo a engagé Scott 2 face-up"}, sameWords["fr"]); len(bad) != 1 || bad[0].Phrase != "up" {
		t.Errorf("an English word is not found: %v", bad)
	}
}

// The counted texts take the language's plural forms: French "one"
// covers 0 and 1, Italian's only 1.
func TestPluralTable(t *testing.T) {
	for _, tc := range []struct {
		lang   string
		points int
		want   string
	}{
		{"en", 1, "Ugo wins with 1 supporter strength"},
		{"en", 41, "Ugo wins with 41 supporter strength"},
		{"fr", 0, "Ugo gagne avec 0 point de partisans"},
		{"fr", 1, "Ugo gagne avec 1 point de partisans"},
		{"fr", 41, "Ugo gagne avec 41 points de partisans"},
		{"it", 0, "Ugo vince con 0 punti di supporter"},
		{"it", 1, "Ugo vince con 1 punto di supporter"},
		{"it", 41, "Ugo vince con 41 punti di supporter"},
	} {
		win := Place{Seat: 0, Points: tc.points}
		if got := newLabeling(nil, []string{"Ugo"}, tc.lang).summary([]Place{win}, win); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.points, got, tc.want)
		}
		ended := strings.Replace(strings.Replace(strings.Replace(tc.want, "wins with", "wins the game with", 1),
			"gagne avec", "gagne la partie avec", 1), "vince con", "vince la partita con", 1) + "."
		if got := newGame(t).Describe(GameEnded{Ranking: []Place{win}}, []string{"Ugo"}, tc.lang); got != ended {
			t.Errorf("game ended, %s %d: %q, want %q", tc.lang, tc.points, got, ended)
		}
	}
}

// French elides de before a name or card that starts with a vowel or an
// h, at the substitution point; other names and languages are untouched.
func TestElisionTable(t *testing.T) {
	g := newGame(t)
	names := []string{"Ugo", "Élodie", "Hélène", "Bob"}
	scott3, wemyss2, makgill5 := rankOf(t, g, Scott, 3), rankOf(t, g, Wemyss, 2), rankOf(t, g, Makgill, 5)
	for _, tc := range []struct {
		lang string
		e    engine.Event
		want string
	}{
		{"fr", Discarded{Seat: 0, Target: 1, Discarded: scott3, Card: wemyss2}, "Ugo défausse Scott 3 d'Élodie avec Wemyss 2."},
		{"fr", Discarded{Seat: 1, Target: 2, Discarded: scott3, Card: wemyss2}, "Élodie défausse Scott 3 d'Hélène avec Wemyss 2."},
		{"fr", Discarded{Seat: 1, Target: 3, Discarded: scott3, Card: wemyss2}, "Élodie défausse Scott 3 de Bob avec Wemyss 2."},
		{"fr", Discarded{Seat: 1, Target: 0, Discarded: scott3, Card: wemyss2}, "Élodie défausse Scott 3 d'Ugo avec Wemyss 2."},
		{"fr", Swapped{Seat: 3, Card: makgill5, Target: 1}, "Bob échange Makgill 5 contre un allié face cachée d'Élodie."},
		{"fr", Swapped{Seat: 3, Card: makgill5, Target: 2, Taken: scott3}, "Bob échange Makgill 5 contre Scott 3 (face cachée) d'Hélène."},
		{"fr", PowerDeclined{Seat: 1, Card: makgill5}, "Élodie n'utilise pas le pouvoir de Makgill 5."},
		{"it", Discarded{Seat: 0, Target: 1, Discarded: scott3, Card: wemyss2}, "Ugo scarta Scott 3 di Élodie con Wemyss 2."},
		{"en", Discarded{Seat: 0, Target: 1, Discarded: scott3, Card: wemyss2}, "Ugo discarded Élodie's Scott 3 with Wemyss 2."},
	} {
		if got := g.Describe(tc.e, names, tc.lang); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.lang, tc.e.EventType(), got, tc.want)
		}
	}
	// The move labels elide the same way.
	lab := newLabeling(g.d, names, "fr")
	m := &Move{Type: MoveTarget, Seat: 1, Index: 0, show: scott3, power: Wemyss, lab: lab}
	if got := m.describe(); got != "Wemyss\u00a0: défausser Scott 3 d'Élodie" {
		t.Errorf("wemyss label %q", got)
	}
	m = &Move{Type: MoveTarget, Seat: 2, Index: 1, power: Fergusson, lab: lab}
	if got := m.describe(); got != "Fergusson\u00a0: l'échanger contre l'allié face cachée en position 2 d'Hélène" {
		t.Errorf("fergusson label %q", got)
	}
}

// rankOf is the rank of the clan's card of strength.
func rankOf(t *testing.T, g *Game, c Clan, strength int) int {
	t.Helper()
	for r := 1; r < len(g.d.info); r++ {
		if g.d.valid(r) && g.d.clan(r) == c && g.d.strength(r) == strength {
			return r
		}
	}
	t.Fatalf("no %s %d", c, strength)
	return 0
}

// A rejected move is explained in the game's language.
func TestRuleErrorsInTheGamesLanguage(t *testing.T) {
	g := newGame(t)
	for lang, want := range map[string][2]string{
		"en": {"seat %d is not to move", "is not a legal move now"},
		"fr": {"ce n'est pas à la place %d de jouer", "n'est pas un coup permis maintenant"},
		"it": {"non è il turno del posto %d", "non è una mossa consentita ora"},
	} {
		st, err := g.New(engine.Setup{Players: 3, Seed: seedOf(3), Language: lang})
		if err != nil {
			t.Fatal(err)
		}
		seat := st.ToMove()[0]
		other := (seat + 1) % 3
		_, err = st.Decide(other, st.Legal(seat)[0])
		var re *engine.RuleError
		if !errors.As(err, &re) || re.Code != engine.CodeNotYourTurn || re.Message != fmt.Sprintf(want[0], other) {
			t.Errorf("%s: wrong seat: %v", lang, err)
		}
		m, err := g.DecodeMove([]byte(`{"type":"claim","card":5}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err = st.Decide(seat, m); !errors.As(err, &re) || re.Code != engine.CodeIllegalMove || !strings.HasSuffix(re.Message, want[1]) {
			t.Errorf("%s: illegal move: %v", lang, err)
		}
	}
}
