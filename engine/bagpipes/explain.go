package bagpipes

import (
	"fmt"

	"pbem/engine"
)

// The kinds of explanation Explain gives.
const (
	// ExplainShield: England's strength before the camps join it: the
	// army card's shield for this table, and England's extra units.
	ExplainShield = "shield"
	// ExplainCampTotal: the units in Scotland's camp, the camps known to
	// fight for Scotland (the badge holder's, the seat's own) and what
	// wins the battle.
	ExplainCampTotal = "camp_total"
	// ExplainBattle: the battle's totals and its winner, once revealed.
	ExplainBattle = "battle"
	// ExplainDeserter: a fighting player with an empty camp, who receives
	// no reward.
	ExplainDeserter = "deserter"
	// ExplainNoMercenaries: the seat replenishing cannot hire mercenaries
	// without gold.
	ExplainNoMercenaries = "no_mercenaries"
	// ExplainBadgeBack: the badge holder cannot pass it back to whoever
	// gave it.
	ExplainBadgeBack = "badge_back"
)

// Explain tells seat what it may not do now and why (hire mercenaries
// without gold, pass the badge back to its giver), and how this round's
// battle is counted: before the reveal, England's shield and extra units
// and Scotland's camp with the camps known to join it (the badge holder
// bound to Scotland, and the seat's own camp for the side it chose, which
// only it knows); after the reveal, the totals, the winner and the
// deserters. Other seats' secret choices and cards are never used.
func (s *state) Explain(seat int, lang string) []engine.Explanation {
	if s.Res != nil {
		return nil
	}
	li := langIndex(lang)
	w := explainVocab[li]
	name := func(q int) string { return playerName(s.Names, q, li) }
	unit := labelVocab[li].unit.count
	out := s.explainChoices(seat, w, name)
	if s.Army < 0 {
		return out
	}
	if s.Revealed {
		out = append(out, engine.Explanation{Kind: ExplainBattle, Text: s.battleText(w)})
		for q := range s.P {
			if s.P[q].Deserter {
				out = append(out, engine.Explanation{Kind: ExplainDeserter, Text: fmt.Sprintf(w.deserter, name(q))})
			}
		}
		return out
	}
	shield := fmt.Sprintf(w.shield, s.army().Name, s.shield(), Choosers(s.N, s.Opt))
	if s.EngBonus > 0 {
		shield += " " + fmt.Sprintf(w.bonus, unit(s.EngBonus), s.shield()+s.EngBonus)
	}
	out = append(out, engine.Explanation{Kind: ExplainShield, Text: shield})
	camp := fmt.Sprintf(w.camp, unit(s.ScotCamp))
	scot, eng := s.ScotCamp, s.shield()+s.EngBonus
	known := false
	if s.sidesSettled() {
		for q := range s.P {
			if !s.fights(q) || s.P[q].Camp == 0 {
				continue
			}
			switch {
			case s.bound(q) && q != seat:
				camp += " " + fmt.Sprintf(w.badge, name(q), unit(s.P[q].Camp))
				scot, known = scot+s.P[q].Camp, true
			case q == seat && s.P[q].Side == sideScotland:
				camp += " " + fmt.Sprintf(w.yoursScot, unit(s.P[q].Camp))
				scot, known = scot+s.P[q].Camp, true
			case q == seat && s.P[q].Side == sideEngland:
				camp += " " + fmt.Sprintf(w.yoursEng, unit(s.P[q].Camp))
				eng, known = eng+s.P[q].Camp, true
			}
		}
	}
	if known {
		camp += " " + fmt.Sprintf(w.known, scot, eng)
	}
	camp += " " + w.rule
	return append(out, engine.Explanation{Kind: ExplainCampTotal, Text: camp})
}

// explainChoices explains what seat, awaited, may not do now: hire
// mercenaries without gold, pass the badge of honour back to its giver.
func (s *state) explainChoices(seat int, w explainWords, name func(int) string) []engine.Explanation {
	if !s.awaits(seat) {
		return nil
	}
	var out []engine.Explanation
	replenishing := s.Phase == phStayActs || s.Phase == phActions && !s.Replenished
	if replenishing && s.P[seat].Gold < 1 {
		out = append(out, engine.Explanation{Kind: ExplainNoMercenaries, Text: w.noMercenaries})
	}
	if s.Phase == phBadge && !s.Opt.ThreePlayer && s.BadgeFrom >= 0 && s.BadgeFrom != seat {
		out = append(out, engine.Explanation{Kind: ExplainBadgeBack, Text: fmt.Sprintf(w.badgeBack, name(s.BadgeFrom))})
	}
	return out
}

// sidesSettled reports whether the round has reached the phases where the
// badge holder is known (after the badge of honour phase) and sides are
// being chosen, before the reveal.
func (s *state) sidesSettled() bool {
	switch s.Phase {
	case phStayGive, phStayActs, phChoice, phBefore, phBadge2:
		return true
	}
	return false
}

// battleText is the revealed battle's totals and winner.
func (s *state) battleText(w explainWords) string {
	if s.Won == sideScotland {
		if s.ScotForce == s.EngForce {
			return fmt.Sprintf(w.tie, s.ScotForce, s.EngForce)
		}
		return fmt.Sprintf(w.scotWins, s.ScotForce, s.EngForce)
	}
	return fmt.Sprintf(w.engWins, s.ScotForce, s.EngForce, s.Defeats, s.DefeatLimit)
}

// explainWords is one language's explanation sentences.
type explainWords struct {
	shield    string // army card, shield, choosers
	bonus     string // "2 units", England's total before camps
	camp      string // "4 units" in Scotland's camp
	badge     string // badge holder, "3 units"
	yoursScot string // "3 units"
	yoursEng  string // "3 units"
	known     string // Scotland known, England known
	rule      string
	scotWins  string // Scotland, England
	tie       string // Scotland, England
	engWins   string // Scotland, England, defeats, limit
	deserter  string // player
	// noMercenaries and badgeBack (giver) explain the seat's own choices.
	noMercenaries string
	badgeBack     string
}

// explainVocab holds the sentences by language index (en, fr, it), in the
// rulebook's words (bouclier, camp de l'Écosse, médaille d'honneur).
var explainVocab = [...]explainWords{
	{
		shield:        "England's army card, %s, has a shield of %d with %d players choosing a side.",
		bonus:         "England has %s more: %d before the camps of its supporters.",
		camp:          "Scotland's camp holds %s.",
		badge:         "%s holds the badge of honour and fights for Scotland with %s.",
		yoursScot:     "You support Scotland with %s.",
		yoursEng:      "You support England with %s.",
		known:         "Known to you so far: Scotland %d, England %d.",
		rule:          "At the battle each side adds the camps of its supporters; Scotland wins ties.",
		scotWins:      "Battle: Scotland %d, England %d. Scotland wins.",
		tie:           "Battle: Scotland %d, England %d. A tie: Scotland wins ties.",
		engWins:       "Battle: Scotland %d, England %d. England wins: Scotland's defeat %d of %d.",
		deserter:      "%s had no unit in camp when the battle began: a deserter receives no reward.",
		noMercenaries: "You cannot hire mercenaries: they cost 1 gold and you have none.",
		badgeBack:     "You cannot pass the badge of honour back to %s, who gave it to you.",
	},
	{
		shield:        "La carte de l'armée anglaise, %s, a un bouclier de %d avec %d joueurs qui choisissent un camp.",
		bonus:         "L'Angleterre a %s de plus : %d avant les camps de ses supporters.",
		camp:          "Le camp de l'Écosse compte %s.",
		badge:         "%s détient la médaille d'honneur et combat pour l'Écosse avec %s.",
		yoursScot:     "Vous soutenez l'Écosse avec %s.",
		yoursEng:      "Vous soutenez l'Angleterre avec %s.",
		known:         "Ce que vous savez déjà : Écosse %d, Angleterre %d.",
		rule:          "Aux combats, chaque armée ajoute les camps de ses supporters ; en cas d'égalité, l'Écosse l'emporte.",
		scotWins:      "Combats : Écosse %d, Angleterre %d. L'Écosse l'emporte.",
		tie:           "Combats : Écosse %d, Angleterre %d. Égalité : l'Écosse l'emporte.",
		engWins:       "Combats : Écosse %d, Angleterre %d. L'Angleterre l'emporte : défaite %d de l'Écosse sur %d.",
		deserter:      "%s n'avait aucune unité dans son camp au début des combats : un déserteur ne reçoit aucune récompense.",
		noMercenaries: "Vous ne pouvez pas engager de mercenaires : ils coûtent 1 or et vous n'en avez pas.",
		badgeBack:     "Vous ne pouvez pas rendre la médaille d'honneur à %s, qui vous l'a donnée.",
	},
	{
		shield:        "La carta dell'esercito inglese, %s, ha uno scudo di %d con %d giocatori che scelgono una parte.",
		bonus:         "L'Inghilterra ha %s in più: %d prima degli accampamenti dei suoi sostenitori.",
		camp:          "L'accampamento della Scozia ha %s.",
		badge:         "%s ha la medaglia d'onore e combatte per la Scozia con %s.",
		yoursScot:     "Sostieni la Scozia con %s.",
		yoursEng:      "Sostieni l'Inghilterra con %s.",
		known:         "Quello che sai finora: Scozia %d, Inghilterra %d.",
		rule:          "Nella battaglia ogni parte aggiunge gli accampamenti dei suoi sostenitori; in caso di parità vince la Scozia.",
		scotWins:      "Battaglia: Scozia %d, Inghilterra %d. Vince la Scozia.",
		tie:           "Battaglia: Scozia %d, Inghilterra %d. Parità: vince la Scozia.",
		engWins:       "Battaglia: Scozia %d, Inghilterra %d. Vince l'Inghilterra: sconfitta %d della Scozia su %d.",
		deserter:      "%s non aveva unità nell'accampamento all'inizio della battaglia: un disertore non riceve ricompense.",
		noMercenaries: "Non puoi assoldare mercenari: costano 1 moneta d'oro e non ne hai.",
		badgeBack:     "Non puoi ridare la medaglia d'onore a %s, che te l'ha data.",
	},
}
