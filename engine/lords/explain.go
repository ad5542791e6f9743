package lords

import (
	"slices"
	"strconv"
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

// Speak implements engine.State: a copy labelled in lang with the
// players' names (s itself when both are its own already).
func (s *State) Speak(lang string, names []string) engine.State {
	l, names, same := engine.Speaking(s.Lang, s.Names, lang, names, s.N)
	if same {
		return s
	}
	c := s.clone()
	c.Lang, c.Names = l, names
	c.lab = newLabeling(c.d, c.Names, c.Lang)
	return c
}

// Explain tells seat how the rules apply to it now: on its turn, that it
// may not recruit with ten cards in hand, and why each card of its hand
// could not use its power face-up (the weaker face-up follower that
// blocks it, or the missing target); during the claims, every army's
// total, doubling, place and claims, and how ties were broken. It uses
// only the seat's hand and public cards.
func (s *State) Explain(seat int, lang string) []engine.Explanation {
	l := newLabeling(s.d, s.Names, lang)
	switch {
	case s.Phase == PhaseClaim:
		return s.explainScores(l)
	case s.Phase == PhasePlay && seat >= 0 && seat == s.awaited() && (s.Pending == nil || s.Pending.Kind == "muster"):
		return s.explainTurn(seat, l)
	}
	return nil
}

// explainTurn explains, on seat's turn, why it may not recruit (ten cards
// in hand) and, for each card of its hand whose power could not be used
// if mustered face-up now, why.
func (s *State) explainTurn(seat int, l *labeling) []engine.Explanation {
	var out []engine.Explanation
	hand := s.Hands[seat]
	if s.Pending == nil && len(hand) >= HandLimit && slices.ContainsFunc(s.Recruits[:], func(r Recruit) bool { return r.Card != 0 }) {
		out = append(out, engine.Explanation{Kind: ExplainNoRecruit, Text: l.t("explain.no_recruit", HandLimit)})
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
			g.cards = append(g.cards, l.card(card))
			continue
		}
		cl := s.d.clan(card)
		if !s.useful(seat, card, cl, len(hand)-1) {
			out = append(out, engine.Explanation{Kind: ExplainPowerUseless,
				Text: l.t("explain.useless", l.card(card), l.t("explain.no_effect."+cl.String()))})
		}
	}
	for blocker, g := range groups {
		where := l.t("explain.your_army")
		if g.owner != seat {
			where = l.t("explain.army_of", l.player(g.owner))
		}
		key := "explain.weaker"
		if s.N > 3 {
			key = "explain.same_clan"
		}
		out[g.at].Text = l.t(key, l.list(g.cards), l.card(blocker), where, len(g.cards))
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
func (s *State) explainScores(l *labeling) []engine.Explanation {
	var out []engine.Explanation
	for i, a := range s.Order {
		name := l.player(a.Seat)
		if len(a.Cards) == 0 {
			out = append(out, engine.Explanation{Kind: ExplainRoundScore, Text: l.t("explain.no_army", a.Place, name)})
			continue
		}
		total := strconv.Itoa(a.Total)
		if a.Doubled {
			total = l.t("explain.doubled", a.Total, a.Total/2)
		}
		claims := l.t("explain.claims_one")
		if a.Claims > 1 {
			claims = l.t("explain.claims_two")
		}
		out = append(out, engine.Explanation{Kind: ExplainRoundScore, Text: l.t("explain.score", a.Place, name, total, claims)})
		if i > 0 {
			prev := s.Order[i-1]
			if len(prev.Cards) > 0 && prev.Total == a.Total {
				out = append(out, engine.Explanation{Kind: ExplainRoundTie,
					Text: l.t("explain.tie", l.player(prev.Seat), name, a.Total, l.card(prev.Best))})
			}
		}
	}
	return out
}

// list joins names in the labeling's language: "A", "A and B", "A, B
// and C".
func (l *labeling) list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return l.t("explain.list", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
