package bagpipes

import (
	"strconv"

	"pbem/engine"
)

// RoundSummary implements engine.Game: the side each seat chose (revealed
// by the battle), whether it deserted, the gold and units the round's
// rewards gave it, and the battle's totals, from the round's Battle and
// Awards events (public parts only: the daggers drawn are not told).
func (g Game) RoundSummary(round []engine.Event, names []string, lang string) *engine.RoundSummary {
	round = engine.LastRound(round, g.RoundEnd)
	if round == nil {
		return nil
	}
	end := len(round) - 1
	var battle *Battle
	var awards *Awards
	for i := end - 1; i >= 0; i-- {
		switch e := round[i].(type) {
		case Battle:
			if battle == nil {
				battle = &e
			}
		case Awards:
			if awards == nil {
				awards = &e
			}
		}
	}
	ended, ok := round[end].(RoundEnded)
	if battle == nil || !ok {
		return nil // the round's battle is not in round
	}
	p := texts.In(lang)
	s := &engine.RoundSummary{Round: ended.Round,
		Columns: []string{p.T("round.side"), p.T("round.deserted"), p.T("round.gold"), p.T("round.units")}}
	for seat := range battle.Sides {
		deserted, gold, units := p.T("round.no"), "0", "0"
		for _, d := range battle.Deserters {
			if d == seat {
				deserted = p.T("round.yes")
			}
		}
		if awards != nil && seat < len(awards.Gold) && seat < len(awards.Units) {
			gold, units = strconv.Itoa(awards.Gold[seat]), strconv.Itoa(awards.Units[seat])
		}
		side := "round.side." + battle.Sides[seat]
		if !texts.Has(side) {
			side = "round.side.none"
		}
		s.Rows = append(s.Rows, engine.RoundRow{Seat: seat, Cells: []string{p.T(side), deserted, gold, units}})
	}
	s.Notes = append(s.Notes, g.Describe(*battle, names, lang), p.T("round.defeats", battle.Defeats))
	return s
}
