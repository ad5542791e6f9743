package bagpipes

import (
	"slices"
	"testing"

	"pbem/engine"
)

// explainTable is a four-player round in the choice phase: Battle of
// Falkirk (shield 9 with three choosers), England 2 units more, Scotland's
// camp 4, Bob holding the badge with 3 units, Ann supporting England in
// secret with 5.
func explainTable(t *testing.T) *state {
	t.Helper()
	s := newState(t, 4, `{}`, 1)
	s.Names = []string{"Ann", "Bob", "Carl", "Dora"}
	s.Army = slices.IndexFunc(s.Set.armies, func(a ArmyCard) bool { return a.ID == "falkirk" })
	if s.Army < 0 {
		t.Fatal("no Battle of Falkirk in the default set")
	}
	s.Phase, s.Badge, s.ScotCamp, s.EngBonus = phChoice, 1, 4, 2
	for i, camp := range []int{5, 3, 1, 0} {
		s.P[i].Camp, s.P[i].Side = camp, sideNone
	}
	s.P[0].Side, s.P[1].Side = sideEngland, sideScotland
	return s
}

func explainTexts(ex []engine.Explanation, kind string) []string {
	var out []string
	for _, e := range ex {
		if e.Kind == kind {
			out = append(out, e.Text)
		}
	}
	return out
}

// Before the reveal: the shield and England's extra units; Scotland's camp
// with the camps known to the seat (the badge holder's, its own).
func TestExplainShieldAndCamp(t *testing.T) {
	s := explainTable(t)
	for _, tc := range []struct {
		seat         int
		lang         string
		shield, camp string
	}{
		{0, "en", "England's army card, Battle of Falkirk, has a shield of 9 with 3 players choosing a side. England has 2 units more: 11 before the camps of its supporters.",
			"Scotland's camp holds 4 units. You support England with 5 units. Bob holds the badge of honour and fights for Scotland with 3 units. Known to you so far: Scotland 7, England 16. At the battle each side adds the camps of its supporters; Scotland wins ties."},
		{2, "en", "England's army card, Battle of Falkirk, has a shield of 9 with 3 players choosing a side. England has 2 units more: 11 before the camps of its supporters.",
			"Scotland's camp holds 4 units. Bob holds the badge of honour and fights for Scotland with 3 units. Known to you so far: Scotland 7, England 11. At the battle each side adds the camps of its supporters; Scotland wins ties."},
		{0, "fr", "La carte de l'armée anglaise, Bataille de Falkirk, a un bouclier de 9 avec 3 joueurs qui choisissent qui soutenir. L'Angleterre a 2 unités de plus\u00a0: 11 avant les camps de ses supporters.",
			"Le camp de l'Écosse compte 4 unités. Vous soutenez l'Angleterre avec 5 unités. Bob détient la médaille d'honneur et combat pour l'Écosse avec 3 unités. Ce que vous savez déjà\u00a0: Écosse 7, Angleterre 16. Aux combats, chaque armée ajoute les camps de ses supporters\u202f; en cas d'égalité, l'Écosse l'emporte."},
		{1, "it", "La carta dell'esercito inglese, Battaglia di Falkirk, ha uno scudo di 9 con 3 giocatori che scelgono una parte. L'Inghilterra ha 2 unità in più: 11 prima degli accampamenti dei suoi sostenitori.",
			"L'accampamento della Scozia ha 4 unità. Sostieni la Scozia con 3 unità. Quello che sai finora: Scozia 7, Inghilterra 11. Nella battaglia ogni parte aggiunge gli accampamenti dei suoi sostenitori; in caso di parità vince la Scozia."},
	} {
		ex := s.Explain(tc.seat, tc.lang)
		if got := explainTexts(ex, ExplainShield); !slices.Equal(got, []string{tc.shield}) {
			t.Errorf("seat %d %s shield:\n got %q\nwant %q", tc.seat, tc.lang, got, tc.shield)
		}
		if got := explainTexts(ex, ExplainCampTotal); !slices.Equal(got, []string{tc.camp}) {
			t.Errorf("seat %d %s camp:\n got %q\nwant %q", tc.seat, tc.lang, got, tc.camp)
		}
	}
}

// Another seat's secret side never changes a seat's explanation.
func TestExplainKeepsOtherSidesSecret(t *testing.T) {
	s := explainTable(t)
	before := s.Explain(2, "en")
	s.P[0].Side = sideScotland
	s.P[3].Side = sideEngland
	if after := s.Explain(2, "en"); !slices.Equal(before, after) {
		t.Errorf("seat 2's explanation follows Ann's secret side:\n%q\n%q", before, after)
	}
}

// After the reveal: the totals, the winner (Scotland on a tie) and the
// deserters.
func TestExplainBattle(t *testing.T) {
	s := explainTable(t)
	s.Phase, s.Revealed, s.ScotForce, s.EngForce, s.Won = phAwards, true, 10, 10, sideScotland
	s.P[3].Deserter = true
	want := []engine.Explanation{
		{Kind: ExplainBattle, Text: "Battle: Scotland 10, England 10. A tie: Scotland wins ties."},
		{Kind: ExplainDeserter, Text: "Dora had no unit in camp when the battle began: a deserter receives no reward (a supporter of England still draws a dagger card)."},
	}
	if got := s.Explain(engine.Spectator, "en"); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	s.ScotForce, s.EngForce, s.Won, s.Defeats, s.DefeatLimit = 8, 12, sideEngland, 2, 4
	if got := explainTexts(s.Explain(2, "fr"), ExplainBattle); !slices.Equal(got, []string{"Combats\u00a0: Écosse 8, Angleterre 12. L'Angleterre l'emporte\u00a0: défaite 2 de l'Écosse sur 4."}) {
		t.Errorf("fr: %q", got)
	}
	if got := explainTexts(s.Explain(2, "it"), ExplainDeserter); !slices.Equal(got, []string{"Dora non aveva unità nell'accampamento all'inizio della battaglia: un disertore non riceve ricompense (chi sostiene l'Inghilterra pesca comunque una carta pugnale)."}) {
		t.Errorf("it: %q", got)
	}
}

// The seat to move is told what it may not do: hire mercenaries without
// gold, pass the badge of honour back to whoever gave it.
func TestExplainTheSeatsChoices(t *testing.T) {
	s := explainTable(t)
	s.Phase, s.Turn, s.Replenished = phActions, 2, false
	s.P[2].Gold = 0
	for lang, want := range map[string]string{
		"en": "You cannot hire mercenaries: they cost 1 gold and you have none.",
		"fr": "Vous ne pouvez pas engager de mercenaires\u00a0: ils coûtent 1 pièce d'or et vous n'en avez pas.",
		"it": "Non puoi assoldare mercenari: costano 1 moneta d'oro e non ne hai.",
	} {
		if got := explainTexts(s.Explain(2, lang), ExplainNoMercenaries); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: %q", lang, got)
		}
	}
	if got := explainTexts(s.Explain(1, "en"), ExplainNoMercenaries); got != nil {
		t.Errorf("seat 1, not to move: %q", got)
	}
	s.P[2].Gold = 1
	if got := explainTexts(s.Explain(2, "en"), ExplainNoMercenaries); got != nil {
		t.Errorf("with gold: %q", got)
	}
	s.Phase, s.Badge, s.BadgeFrom = phBadge, 1, 2
	for lang, want := range map[string]string{
		"en": "You cannot pass the badge of honour back to Carl, who gave it to you.",
		"fr": "Vous ne pouvez pas rendre la médaille d'honneur à Carl, qui vous l'a donnée.",
		"it": "Non puoi ridare la medaglia d'onore a Carl, che te l'ha data.",
	} {
		if got := explainTexts(s.Explain(1, lang), ExplainBadgeBack); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: %q", lang, got)
		}
	}
	var to []int
	for _, m := range s.legal(1) {
		to = append(to, m.To)
	}
	if slices.Contains(to, 2) {
		t.Errorf("the badge may go back to its giver: %v", to)
	}
}

// plantSecrets returns a copy of s with another seat's secrets changed:
// its hidden cards (plantMarker) and, before the reveal, its chosen side.
// The random games check that no seat's explanation follows them.
func plantSecrets(s *state, seat, k int) (*state, bool) {
	c, planted := plantMarker(s, seat, k)
	if !planted {
		c = s.clone()
	}
	if s.Revealed {
		return c, planted
	}
	for d := 1; d < c.N; d++ {
		q := (seat + d + k) % c.N
		if q < 0 || q == seat || c.bound(q) {
			continue
		}
		switch c.P[q].Side {
		case sideScotland:
			c.P[q].Side = sideEngland
			return c, true
		case sideEngland:
			c.P[q].Side = sideScotland
			return c, true
		}
	}
	return c, planted
}
