package bagpipes

import (
	"pbem/engine"
	"pbem/engine/i18n"
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

// Speak implements engine.State: a copy labelled in lang, its cards named
// as the rulebook of lang names them (custom names stay as written).
// The players are named by names (s itself when lang and names are its
// own already).
func (s *state) Speak(lang string, names []string) engine.State {
	l, names, same := engine.Speaking(s.Lang, s.Names, lang, names, s.N)
	if same {
		return s
	}
	c := s.clone()
	c.Lang, c.Names = l, names
	c.lab = &labeling{set: c.Set, names: c.Names, lang: i18n.Norm(c.Lang)}
	return c
}

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
	p := texts.In(lang)
	name := func(q int) string { return playerName(s.Names, q, p.Lang()) }
	unit := func(n int) string { return p.T("count.unit", n) }
	out := s.explainChoices(seat, p, name)
	if s.Army < 0 {
		return out
	}
	if s.Revealed {
		out = append(out, engine.Explanation{Kind: ExplainBattle, Text: s.battleText(p)})
		for q := range s.P {
			if s.P[q].Deserter {
				out = append(out, engine.Explanation{Kind: ExplainDeserter, Text: p.T("explain.deserter", name(q))})
			}
		}
		return out
	}
	shield := p.T("explain.shield", s.Set.armyName(s.Army, p.Lang()), s.shield(), Choosers(s.N, s.Opt))
	if s.EngBonus > 0 {
		shield += " " + p.T("explain.bonus", unit(s.EngBonus), s.shield()+s.EngBonus)
	}
	out = append(out, engine.Explanation{Kind: ExplainShield, Text: shield})
	camp := p.T("explain.camp", unit(s.ScotCamp))
	scot, eng := s.ScotCamp, s.shield()+s.EngBonus
	known := false
	if s.sidesSettled() {
		for q := range s.P {
			if !s.fights(q) || s.P[q].Camp == 0 {
				continue
			}
			switch {
			case s.bound(q) && q != seat:
				camp += " " + p.T("explain.badge", name(q), unit(s.P[q].Camp))
				scot, known = scot+s.P[q].Camp, true
			case q == seat && s.P[q].Side == sideScotland:
				camp += " " + p.T("explain.yours_scotland", unit(s.P[q].Camp))
				scot, known = scot+s.P[q].Camp, true
			case q == seat && s.P[q].Side == sideEngland:
				camp += " " + p.T("explain.yours_england", unit(s.P[q].Camp))
				eng, known = eng+s.P[q].Camp, true
			}
		}
	}
	if known {
		camp += " " + p.T("explain.known", scot, eng)
	}
	camp += " " + p.T("explain.rule")
	return append(out, engine.Explanation{Kind: ExplainCampTotal, Text: camp})
}

// explainChoices explains what seat, awaited, may not do now: hire
// mercenaries without gold, pass the badge of honour back to its giver.
func (s *state) explainChoices(seat int, p i18n.Printer, name func(int) string) []engine.Explanation {
	if !s.awaits(seat) {
		return nil
	}
	var out []engine.Explanation
	replenishing := s.Phase == phStayActs || s.Phase == phActions && !s.Replenished
	if replenishing && s.P[seat].Gold < 1 {
		out = append(out, engine.Explanation{Kind: ExplainNoMercenaries, Text: p.T("explain.no_mercenaries")})
	}
	if s.Phase == phBadge && !s.Opt.ThreePlayer && s.BadgeFrom >= 0 && s.BadgeFrom != seat ||
		s.Phase == phBadge2 && s.badgeBack2() {
		out = append(out, engine.Explanation{Kind: ExplainBadgeBack, Text: p.T("explain.badge_back", name(s.BadgeFrom))})
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
func (s *state) battleText(p i18n.Printer) string {
	if s.Won == sideScotland {
		if s.ScotForce == s.EngForce {
			return p.T("explain.tie", s.ScotForce, s.EngForce)
		}
		return p.T("explain.scotland_wins", s.ScotForce, s.EngForce)
	}
	return p.T("explain.england_wins", s.ScotForce, s.EngForce, s.Defeats, s.DefeatLimit)
}
