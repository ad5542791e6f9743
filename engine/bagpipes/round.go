package bagpipes

import (
	"strconv"
	"strings"

	"pbem/engine"
)

// roundWords are the round summary's headings and cells, by language.
var roundWords = map[string]map[string]string{
	"en": {"side": "Side", "gold": "Gold won", "units": "Units won", "deserted": "Deserted",
		"scotland": "Scotland", "england": "England", "": "none", "yes": "yes", "no": "no",
		"defeats": "England's victories so far: %d."},
	"fr": {"side": "Camp", "gold": "Or gagné", "units": "Unités gagnées", "deserted": "Déserteur",
		"scotland": "Écosse", "england": "Angleterre", "": "aucun", "yes": "oui", "no": "non",
		"defeats": "Victoires de l'Angleterre jusqu'ici : %d."},
	"it": {"side": "Schieramento", "gold": "Oro vinto", "units": "Unità vinte", "deserted": "Disertore",
		"scotland": "Scozia", "england": "Inghilterra", "": "nessuno", "yes": "sì", "no": "no",
		"defeats": "Vittorie dell'Inghilterra finora: %d."},
}

// RoundSummary implements engine.Game: the side each seat chose (revealed
// by the battle), whether it deserted, the gold and units the round's
// rewards gave it, and the battle's totals, from the round's Battle and
// Awards events (public parts only: the daggers drawn are not told).
func (g Game) RoundSummary(round []engine.Event, names []string, lang string) *engine.RoundSummary {
	end := -1
	for i := len(round) - 1; i >= 0 && end < 0; i-- {
		if _, ok := round[i].(RoundEnded); ok {
			end = i
		}
	}
	if end < 0 {
		return nil
	}
	var battle *Battle
	var awards *Awards
	for i := end - 1; i >= 0; i-- {
		if _, ok := round[i].(RoundEnded); ok {
			break
		}
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
	if battle == nil {
		return nil // the round's battle is not in round
	}
	w := roundWords[normLang(lang)]
	s := &engine.RoundSummary{Round: round[end].(RoundEnded).Round,
		Columns: []string{w["side"], w["deserted"], w["gold"], w["units"]}}
	for seat := range battle.Sides {
		deserted, gold, units := w["no"], "0", "0"
		for _, d := range battle.Deserters {
			if d == seat {
				deserted = w["yes"]
			}
		}
		if awards != nil && seat < len(awards.Gold) && seat < len(awards.Units) {
			gold, units = strconv.Itoa(awards.Gold[seat]), strconv.Itoa(awards.Units[seat])
		}
		s.Rows = append(s.Rows, engine.RoundRow{Seat: seat, Cells: []string{w[battle.Sides[seat]], deserted, gold, units}})
	}
	s.Notes = append(s.Notes, g.Describe(*battle, names, lang), strings.Replace(w["defeats"], "%d", strconv.Itoa(battle.Defeats), 1))
	return s
}
