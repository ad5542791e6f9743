package lords

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
)

// explainCase is a table laid out in the scenario format, the moves that
// lead to it, and the explanations of one seat in each language.
type explainCase struct {
	name  string
	setup [][2]string
	play  []string
	seat  int
	names []string // the players' names (nil: Ann, Bob, Carl, Dora)
	want  map[string][]engine.Explanation
}

func explainCases() []explainCase {
	ex := func(kind string, texts ...string) []engine.Explanation {
		out := make([]engine.Explanation, len(texts))
		for i, t := range texts {
			out[i] = engine.Explanation{Kind: kind, Text: t}
		}
		return out
	}
	return []explainCase{
		{"2-3 players: a weaker face-up follower blocks", [][2]string{{"players", "3"},
			{"hand 0", "Fergusson12 Scott1"}, {"army 1", "Cockburn7 ~Wemyss2"}, {"army 2", "Makgill9"}}, nil, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Fergusson 12 cannot use its power now: Cockburn 7, in Bob's army, is weaker."),
				"fr": ex(ExplainPowerBlocked, "Fergusson 12 ne peut pas utiliser son pouvoir maintenant\u00a0: Cockburn 7, dans l'armée de Bob, est plus faible."),
				"it": ex(ExplainPowerBlocked, "Fergusson 12 non può usare il suo potere ora: Cockburn 7, nell'esercito di Bob, è più debole."),
			}},
		{"4-5 players: only the same clan blocks, equal included", [][2]string{{"players", "4"},
			{"hand 2", "Wemyss5 Scott3"}, {"army 2", "Wemyss6"}, {"army 0", "Scott1"}, {"army 3", "Cockburn1"},
			{"turn", "1"}, {"step", "2"}}, nil, 2, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Scott 3 cannot use its power now: Scott 1, of the same clan, in Ann's army, is not stronger."),
				"fr": ex(ExplainPowerBlocked, "Scott 3 ne peut pas utiliser son pouvoir maintenant\u00a0: Scott 1, du même clan, dans l'armée d'Ann, n'est pas plus fort."),
				"it": ex(ExplainPowerBlocked, "Scott 3 non può usare il suo potere ora: Scott 1, dello stesso clan, nell'esercito di Ann, non è più forte."),
			}},
		{"Makgill's extra follower: the Makgill blocks it", [][2]string{{"players", "3"},
			{"hand 0", "Makgill2 Scott3"}}, []string{"play 0 muster Makgill2 up", "play 0 power yes"}, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Scott 3 cannot use its power now: Makgill 2, in your army, is weaker."),
				"fr": ex(ExplainPowerBlocked, "Scott 3 ne peut pas utiliser son pouvoir maintenant\u00a0: Makgill 2, dans votre armée, est plus faible."),
				"it": ex(ExplainPowerBlocked, "Scott 3 non può usare il suo potere ora: Makgill 2, nel tuo esercito, è più debole."),
			}},
		{"a French name takes the elision", [][2]string{{"players", "3"},
			{"hand 0", "Forsyth9"}, {"army 2", "Scott1"}}, nil, 0, []string{"Ann", "Bob", "Élodie"},
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Forsyth 9 cannot use its power now: Scott 1, in Élodie's army, is weaker."),
				"fr": ex(ExplainPowerBlocked, "Forsyth 9 ne peut pas utiliser son pouvoir maintenant\u00a0: Scott 1, dans l'armée d'Élodie, est plus faible."),
				"it": ex(ExplainPowerBlocked, "Forsyth 9 non può usare il suo potere ora: Scott 1, nell'esercito di Élodie, è più debole."),
			}},
		{"ten cards in hand: no recruit", [][2]string{{"hand 0", "Cochrane1 Cochrane2 Cochrane3 Cochrane4 Cochrane5 Cochrane6 Cochrane7 Cochrane8 Cochrane9 Cochrane10"}}, nil, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainNoRecruit, "You cannot recruit: you already hold 10 cards."),
				"fr": ex(ExplainNoRecruit, "Vous ne pouvez pas recruter\u00a0: vous avez déjà 10 cartes en main."),
				"it": ex(ExplainNoRecruit, "Non puoi reclutare: hai già 10 carte in mano."),
			}},
		{"one follower blocks several cards: one sentence", [][2]string{{"players", "3"},
			{"hand 0", "Scott9 Wemyss3 Forsyth7 Makgill1"}, {"army 1", "Cockburn2"}, {"army 2", "Wemyss6"}}, nil, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Scott 9, Wemyss 3 and Forsyth 7 cannot use their powers now: Cockburn 2, in Bob's army, is weaker."),
				"fr": ex(ExplainPowerBlocked, "Scott 9, Wemyss 3 et Forsyth 7 ne peuvent pas utiliser leur pouvoir maintenant\u00a0: Cockburn 2, dans l'armée de Bob, est plus faible."),
				"it": ex(ExplainPowerBlocked, "Scott 9, Wemyss 3 e Forsyth 7 non possono usare il loro potere ora: Cockburn 2, nell'esercito di Bob, è più debole."),
			}},
		{"4-5 players: one blocker per clan", [][2]string{{"players", "4"},
			{"hand 0", "Scott9 Wemyss2 Scott7 Wemyss8"}, {"army 1", "Scott2"}, {"army 0", "Wemyss3"}}, nil, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerBlocked, "Scott 9 and Scott 7 cannot use their powers now: Scott 2, of the same clan, in Bob's army, is not stronger.",
					"Wemyss 8 cannot use its power now: Wemyss 3, of the same clan, in your army, is not stronger."),
				"fr": ex(ExplainPowerBlocked, "Scott 9 et Scott 7 ne peuvent pas utiliser leur pouvoir maintenant\u00a0: Scott 2, du même clan, dans l'armée de Bob, n'est pas plus fort.",
					"Wemyss 8 ne peut pas utiliser son pouvoir maintenant\u00a0: Wemyss 3, du même clan, dans votre armée, n'est pas plus fort."),
				"it": ex(ExplainPowerBlocked, "Scott 9 e Scott 7 non possono usare il loro potere ora: Scott 2, dello stesso clan, nell'esercito di Bob, non è più forte.",
					"Wemyss 8 non può usare il suo potere ora: Wemyss 3, dello stesso clan, nel tuo esercito, non è più forte."),
			}},
		{"a power without effect", [][2]string{{"hand 0", "Cockburn1 Makgill1"}, {"supporters", ""}}, nil, 0, nil,
			map[string][]engine.Explanation{
				"en": ex(ExplainPowerUseless, "Cockburn 1 cannot use its power now: no supporter is left."),
				"fr": ex(ExplainPowerUseless, "Cockburn 1 ne peut pas utiliser son pouvoir maintenant\u00a0: il ne reste aucun partisan."),
				"it": ex(ExplainPowerUseless, "Cockburn 1 non può usare il suo potere ora: non resta nessun supporter."),
			}},
		{"the claims: totals, doubling, ties and no army", [][2]string{{"players", "3"}, {"turn", "5"}, {"step", "2"},
			{"army 0", "Wemyss4 Wemyss6"}, {"army 1", "Scott11 Makgill9"}, {"hand 2", "Forsyth2"},
			{"supporters", "Forsyth3 Scott9 Cockburn5"}}, []string{"play 2 muster Forsyth2 down"}, 0, nil,
			map[string][]engine.Explanation{
				"en": append(append(ex(ExplainRoundScore, "Place 1: Bob, 20; claims one supporter.", "Place 2: Ann, 20 (10 doubled: one clan only); claims one supporter."),
					ex(ExplainRoundTie, "Bob and Ann both have 20: Bob ranks higher with Scott 11, the highest-ranked card.")...),
					ex(ExplainRoundScore, "Place 3: Carl, 2; claims one supporter.")...),
				"fr": append(append(ex(ExplainRoundScore, "Place 1\u00a0: Bob, 20\u202f; récupère un partisan.", "Place 2\u00a0: Ann, 20 (10 doublé\u00a0: un seul clan)\u202f; récupère un partisan."),
					ex(ExplainRoundTie, "Bob et Ann ont tous deux 20\u00a0: Bob passe devant grâce à Scott 11, la carte de plus haut rang.")...),
					ex(ExplainRoundScore, "Place 3\u00a0: Carl, 2\u202f; récupère un partisan.")...),
				"it": append(append(ex(ExplainRoundScore, "Posto 1: Bob, 20; rivendica un supporter.", "Posto 2: Ann, 20 (10 raddoppiato: un solo clan); rivendica un supporter."),
					ex(ExplainRoundTie, "Bob ed Ann hanno entrambi 20: Bob passa avanti grazie a Scott 11, la carta di grado più alto.")...),
					ex(ExplainRoundScore, "Posto 3: Carl, 2; rivendica un supporter.")...),
			}},
	}
}

// Each kind of explanation, on a concrete table, in every language.
func TestExplainInEveryLanguage(t *testing.T) {
	g := newGame(t)
	names := []string{"Ann", "Bob", "Carl", "Dora"}
	for _, c := range explainCases() {
		for _, lang := range []string{"en", "fr", "it"} {
			names := names
			if c.names != nil {
				names = c.names
			}
			sc := labelState(t, g, labelCase{name: c.name, setup: c.setup, play: c.play}, names, "")
			got := sc.s.Explain(c.seat, lang)
			if !slices.Equal(got, c.want[lang]) {
				t.Errorf("%s, %s:\n got %q\nwant %q", c.name, lang, got, c.want[lang])
			}
		}
	}
}

// The blocked power is explained only to the seat that musters, only
// while it musters; the claims are explained to everyone.
func TestExplainOnlyWhereItApplies(t *testing.T) {
	g := newGame(t)
	c := explainCases()[0]
	sc := labelState(t, g, labelCase{setup: c.setup}, nil, "")
	if got := sc.s.Explain(1, "en"); got != nil {
		t.Errorf("seat 1, not to move: %q", got)
	}
	if got := sc.s.Explain(engine.Spectator, "en"); got != nil {
		t.Errorf("spectator: %q", got)
	}
	cases := explainCases()
	claims := cases[slices.IndexFunc(cases, func(c explainCase) bool { return strings.HasPrefix(c.name, "the claims") })]
	sc = labelState(t, g, labelCase{setup: claims.setup, play: claims.play}, nil, "")
	for seat := -1; seat < sc.s.N; seat++ {
		if got := sc.s.Explain(seat, "en"); len(got) != 4 {
			t.Errorf("claims, seat %d: %q", seat, got)
		}
	}
}

// A power the muster would really activate is not explained, and the
// explanation agrees with what the muster does.
func TestExplainAgreesWithTheMuster(t *testing.T) {
	g := newGame(t)
	sc := labelState(t, g, labelCase{setup: [][2]string{{"players", "3"},
		{"hand 0", "Fergusson12 Forsyth2"}, {"army 1", "Cockburn7"}}}, nil, "")
	explained := sc.s.Explain(0, "en")
	if len(explained) != 1 {
		t.Fatalf("explanations %q, want one", explained)
	}
	for _, card := range sc.s.Hands[0] {
		blocked := strings.HasPrefix(explained[0].Text, g.d.cardName(card, "en")+" ")
		evs, err := sc.s.Decide(0, &Move{Type: MoveMuster, Card: card, FaceUp: true})
		if err != nil {
			t.Fatal(err)
		}
		fired := evs[0].(Mustered).Activate
		if fired == blocked {
			t.Errorf("%s: activates %v, explained as blocked %v", g.d.cardName(card, "en"), fired, blocked)
		}
	}
}
