package lords

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
)

// The kinds of explanation Explain gives.
const (
	// ExplainPowerBlocked: a card in the seat's hand could not activate
	// its power if mustered face-up now (rulings 3-4), and the follower
	// that blocks it.
	ExplainPowerBlocked = "power_blocked"
	// ExplainPowerUseless: the activation condition holds but the power
	// would have no effect, so it is not offered.
	ExplainPowerUseless = "power_useless"
	// ExplainNoRecruit: the seat holds ten cards and may not recruit
	// (ruling 2).
	ExplainNoRecruit = "no_recruit"
	// ExplainRoundScore: one army's total, doubling, place and claims
	// during the claims (ruling 14), one sentence per seat, best first.
	ExplainRoundScore = "round_score"
	// ExplainRoundTie: two armies with the same total, and the card that
	// breaks the tie.
	ExplainRoundTie = "round_tie"
)

// Explain tells seat how the rules apply to it now: on its turn, that it
// may not recruit with ten cards in hand, and why each card of its hand
// could not use its power face-up (the weaker face-up follower that
// blocks it, or the missing target); during the claims, every army's
// total, doubling, place and claims, and how ties were broken. It uses
// only the seat's hand and public cards.
func (s *State) Explain(seat int, lang string) []engine.Explanation {
	w := explainWords(normLang(lang))
	names := newLabeling(s.d, s.Names, lang)
	switch {
	case s.Phase == PhaseClaim:
		return s.explainScores(w, names)
	case s.Phase == PhasePlay && seat >= 0 && seat == s.awaited() && (s.Pending == nil || s.Pending.Kind == "muster"):
		return s.explainTurn(seat, w, names)
	}
	return nil
}

// explainTurn explains, on seat's turn, why it may not recruit (ten cards
// in hand) and, for each card of its hand whose power could not be used
// if mustered face-up now, why.
func (s *State) explainTurn(seat int, w explainText, names *labeling) []engine.Explanation {
	var out []engine.Explanation
	hand := s.Hands[seat]
	if s.Pending == nil && len(hand) >= HandLimit && slices.ContainsFunc(s.Recruits[:], func(r Recruit) bool { return r.Card != 0 }) {
		out = append(out, engine.Explanation{Kind: ExplainNoRecruit, Text: fmt.Sprintf(w.noRecruit, HandLimit)})
	}
	// The cards one follower blocks make one sentence, at the place of
	// the first of them.
	type group struct {
		at, owner int
		cards     []string
	}
	groups := map[int]*group{} // by blocker
	for _, card := range hand {
		if blocker, owner, ok := s.blocker(card); ok {
			g := groups[blocker]
			if g == nil {
				g = &group{at: len(out), owner: owner}
				groups[blocker] = g
				out = append(out, engine.Explanation{Kind: ExplainPowerBlocked})
			}
			g.cards = append(g.cards, s.d.name(card))
			continue
		}
		cl := s.d.clan(card)
		if !s.useful(seat, card, cl, len(hand)-1) {
			out = append(out, engine.Explanation{Kind: ExplainPowerUseless,
				Text: fmt.Sprintf(w.useless, s.d.name(card), w.noEffect[cl])})
		}
	}
	for blocker, g := range groups {
		where := w.yourArmy
		if g.owner != seat {
			where = fmt.Sprintf(w.armyOf, w.of(names.player(g.owner)))
		}
		f := w.weaker
		switch many := len(g.cards) > 1; {
		case s.N > 3 && many:
			f = w.sameClanMany
		case s.N > 3:
			f = w.sameClan
		case many:
			f = w.weakerMany
		}
		out[g.at].Text = fmt.Sprintf(f, w.list(g.cards), s.d.name(blocker), where)
	}
	return out
}

// blocker is the weakest face-up follower that keeps card, mustered
// face-up now, from activating (canActivate's condition), and its owner.
func (s *State) blocker(card int) (follower, owner int, ok bool) {
	str, cl := s.d.strength(card), s.d.clan(card)
	best := 0
	for q, army := range s.Armies {
		for _, f := range army {
			if !f.FaceUp || f.Card == card {
				continue
			}
			fs := s.d.strength(f.Card)
			blocks := fs < str
			if s.N > 3 {
				blocks = s.d.clan(f.Card) == cl && fs <= str
			}
			if blocks && (!ok || fs < best) {
				follower, owner, best, ok = f.Card, q, fs, true
			}
		}
	}
	return follower, owner, ok
}

// explainScores tells the last scored round (public: every follower was
// revealed), best first, with the ties and what broke them.
func (s *State) explainScores(w explainText, names *labeling) []engine.Explanation {
	var out []engine.Explanation
	for i, a := range s.Order {
		name := names.player(a.Seat)
		if len(a.Cards) == 0 {
			out = append(out, engine.Explanation{Kind: ExplainRoundScore, Text: fmt.Sprintf(w.noArmy, a.Place, name)})
			continue
		}
		total := fmt.Sprint(a.Total)
		if a.Doubled {
			total = fmt.Sprintf(w.doubled, a.Total, a.Total/2)
		}
		claims := w.claimsOne
		if a.Claims > 1 {
			claims = w.claimsTwo
		}
		out = append(out, engine.Explanation{Kind: ExplainRoundScore, Text: fmt.Sprintf(w.score, a.Place, name, total, claims)})
		if i > 0 {
			prev := s.Order[i-1]
			if len(prev.Cards) > 0 && prev.Total == a.Total {
				out = append(out, engine.Explanation{Kind: ExplainRoundTie,
					Text: fmt.Sprintf(w.tie, names.player(prev.Seat), name, a.Total, s.d.name(prev.Best))})
			}
		}
	}
	return out
}

// explainText is one language's explanation sentences.
type explainText struct {
	weaker, sameClan string // card, blocker, where
	// weakerMany and sameClanMany: the same for several cards (a list).
	weakerMany, sameClanMany string
	and                      string // the list's last separator
	yourArmy, armyOf         string // - / "of NAME"
	useless                  string // card, reason
	noRecruit                string // hand limit
	noEffect                 map[Clan]string
	score                    string // place, name, total, claims
	doubled                  string // total, half
	claimsOne                string
	claimsTwo                string
	noArmy                   string // place, name
	tie                      string // first, second, total, best card
	of                       func(name string) string
}

// explainWords is the explanation catalog of lang (normalised).
func explainWords(lang string) explainText {
	switch lang {
	case "fr":
		return explainText{
			weaker:       "%[1]s ne peut pas utiliser son pouvoir maintenant : %[2]s, %[3]s, est plus faible.",
			weakerMany:   "%[1]s ne peuvent pas utiliser leur pouvoir maintenant : %[2]s, %[3]s, est plus faible.",
			sameClanMany: "%[1]s ne peuvent pas utiliser leur pouvoir maintenant : %[2]s, du même clan, %[3]s, n'est pas plus fort.",
			and:          " et ",
			sameClan:     "%[1]s ne peut pas utiliser son pouvoir maintenant : %[2]s, du même clan, %[3]s, n'est pas plus fort.",
			yourArmy:     "dans votre armée",
			armyOf:       "dans l'armée %s",
			useless:      "%[1]s ne peut pas utiliser son pouvoir maintenant : %[2]s.",
			noRecruit:    "Vous ne pouvez pas recruter : vous avez déjà %d cartes en main.",
			score:        "Place %[1]d : %[2]s, %[3]s ; %[4]s.",
			doubled:      "%[1]d (%[2]d doublé : un seul clan)",
			claimsOne:    "prend un partisan",
			claimsTwo:    "prend deux partisans (Cochrane)",
			noArmy:       "Place %[1]d : %[2]s, aucun suivant ; ne prend rien.",
			tie:          "%[1]s et %[2]s ont tous deux %[3]d : %[1]s passe devant grâce à %[4]s, la carte de plus haut rang.",
			of:           frenchOf,
			noEffect: map[Clan]string{
				Makgill:   "aucune autre carte dans votre main à lever",
				Forsyth:   "la pioche et la défausse sont vides",
				Cockburn:  "il ne reste aucun partisan",
				Fergusson: "aucun adversaire n'a de suivant",
				Wemyss:    "aucun autre suivant en jeu",
				Scott:     "aucun suivant face visible dont il pourrait copier un pouvoir utile",
			},
		}
	case "it":
		return explainText{
			weaker:       "%[1]s non può usare il suo potere ora: %[2]s, %[3]s, è più debole.",
			weakerMany:   "%[1]s non possono usare il loro potere ora: %[2]s, %[3]s, è più debole.",
			sameClanMany: "%[1]s non possono usare il loro potere ora: %[2]s, dello stesso clan, %[3]s, non è più forte.",
			and:          " e ",
			sameClan:     "%[1]s non può usare il suo potere ora: %[2]s, dello stesso clan, %[3]s, non è più forte.",
			yourArmy:     "nel tuo esercito",
			armyOf:       "nell'esercito di %s",
			useless:      "%[1]s non può usare il suo potere ora: %[2]s.",
			noRecruit:    "Non puoi reclutare: hai già %d carte in mano.",
			score:        "Posto %[1]d: %[2]s, %[3]s; %[4]s.",
			doubled:      "%[1]d (%[2]d raddoppiato: un solo clan)",
			claimsOne:    "prende un sostenitore",
			claimsTwo:    "prende due sostenitori (Cochrane)",
			noArmy:       "Posto %[1]d: %[2]s, nessun seguace; non prende nulla.",
			tie:          "%[1]s e %[2]s hanno entrambi %[3]d: %[1]s passa avanti grazie a %[4]s, la carta di grado più alto.",
			of:           func(n string) string { return n },
			noEffect: map[Clan]string{
				Makgill:   "nessun'altra carta in mano da schierare",
				Forsyth:   "il mazzo e gli scarti sono vuoti",
				Cockburn:  "non resta nessun sostenitore",
				Fergusson: "nessun avversario ha seguaci",
				Wemyss:    "nessun altro seguace in gioco",
				Scott:     "nessun seguace scoperto di cui copiare un potere utile",
			},
		}
	}
	return explainText{
		weaker:       "%[1]s cannot use its power now: %[2]s, %[3]s, is weaker.",
		weakerMany:   "%[1]s cannot use their powers now: %[2]s, %[3]s, is weaker.",
		sameClanMany: "%[1]s cannot use their powers now: %[2]s, of the same clan, %[3]s, is not stronger.",
		and:          " and ",
		sameClan:     "%[1]s cannot use its power now: %[2]s, of the same clan, %[3]s, is not stronger.",
		yourArmy:     "in your army",
		armyOf:       "in %s army",
		useless:      "%[1]s cannot use its power now: %[2]s.",
		noRecruit:    "You cannot recruit: you already hold %d cards.",
		score:        "Place %[1]d: %[2]s, %[3]s; %[4]s.",
		doubled:      "%[1]d (%[2]d doubled: one clan only)",
		claimsOne:    "claims one supporter",
		claimsTwo:    "claims two supporters (Cochrane)",
		noArmy:       "Place %[1]d: %[2]s, no followers; claims nothing.",
		tie:          "%[1]s and %[2]s both have %[3]d: %[1]s ranks higher with %[4]s, the highest-ranked card.",
		of:           englishPossessive,
		noEffect: map[Clan]string{
			Makgill:   "no other card in your hand to muster",
			Forsyth:   "the draw and discard piles are empty",
			Cockburn:  "no supporter is left",
			Fergusson: "no opponent has a follower",
			Wemyss:    "no other follower is in play",
			Scott:     "no face-up follower has a power it could use",
		},
	}
}

// list joins names: "A", "A and B", "A, B and C".
func (w explainText) list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + w.and + names[len(names)-1]
}

// englishPossessive is "Bob's" ("James'" for a name ending in s).
func englishPossessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// frenchOf is "de Bob", elided before a vowel or a mute h: "d'Élodie".
func frenchOf(name string) string {
	if startsWithVowel(name) {
		return "d'" + name
	}
	return "de " + name
}

// startsWithVowel reports whether name starts with a vowel (accented or
// not) or an h, the cases where French elides "de".
func startsWithVowel(name string) bool {
	for _, r := range strings.ToLower(name) {
		return strings.ContainsRune("aeiouyhàâäéèêëîïôöùûüœæ", r)
	}
	return false
}
