package lords

import (
	"strconv"
	"strings"

	"pbem/engine"
)

// roundWords are the round summary's headings and cells, by language.
type roundWords struct {
	army, total, doubled, place, claimed string
	yes, no, none                        string
	noArmy                               string // "none", agreeing with army
	initiative                           string // %s: the player who takes it
}

func roundLang(code string) roundWords {
	switch strings.ToLower(code) {
	case "fr":
		return roundWords{army: "Armée", total: "Total", doubled: "Doublé", place: "Rang", claimed: "Partisans pris",
			yes: "oui", no: "non", none: "aucun", noArmy: "aucune", initiative: "%s prend l'initiative."}
	case "it":
		return roundWords{army: "Esercito", total: "Totale", doubled: "Raddoppiato", place: "Posizione", claimed: "Sostenitori presi",
			yes: "sì", no: "no", none: "nessuno", noArmy: "nessuno", initiative: "%s prende l'iniziativa."}
	}
	return roundWords{army: "Army", total: "Total", doubled: "Doubled", place: "Place", claimed: "Supporters claimed",
		yes: "yes", no: "no", none: "none", noArmy: "none", initiative: "%s takes the initiative."}
}

// RoundSummary implements engine.Game: each army of the round that the
// last RoundEnded of round closes (its followers, total, whether it was
// doubled, its place) and the supporters each seat claimed, best army
// first, from the round's RoundScored and Claimed events (all public:
// every follower is face-up once the round is scored).
func (g *Game) RoundSummary(round []engine.Event, names []string, lang string) *engine.RoundSummary {
	end := -1
	for i := len(round) - 1; i >= 0 && end < 0; i-- {
		if _, ok := round[i].(RoundEnded); ok {
			end = i
		}
	}
	if end < 0 {
		return nil
	}
	var scored *RoundScored
	claims := map[int][]string{}
	for i := end - 1; i >= 0; i-- {
		if sc, ok := round[i].(RoundScored); ok {
			scored = &sc
			break
		}
		if c, ok := round[i].(Claimed); ok {
			claims[c.Seat] = append([]string{g.d.name(c.Card)}, claims[c.Seat]...)
		}
	}
	if scored == nil {
		return nil // the round's scoring is not in round
	}
	ended := round[end].(RoundEnded)
	w := roundLang(lang)
	s := &engine.RoundSummary{Round: ended.Round, Columns: []string{w.army, w.total, w.doubled, w.place, w.claimed}}
	for _, a := range scored.Armies {
		cards := make([]string, len(a.Cards))
		for i, c := range a.Cards {
			cards[i] = g.d.name(c)
		}
		army, doubled, claimed := strings.Join(cards, ", "), w.no, strings.Join(claims[a.Seat], ", ")
		if army == "" {
			army = w.noArmy
		}
		if a.Doubled {
			doubled = w.yes
		}
		if claimed == "" {
			claimed = w.none
		}
		s.Rows = append(s.Rows, engine.RoundRow{Seat: a.Seat, Cells: []string{army, strconv.Itoa(a.Total), doubled, strconv.Itoa(a.Place), claimed}})
	}
	if ended.Initiative >= 0 {
		who := "Seat " + strconv.Itoa(ended.Initiative)
		if ended.Initiative < len(names) && names[ended.Initiative] != "" {
			who = names[ended.Initiative]
		}
		s.Notes = append(s.Notes, strings.Replace(w.initiative, "%s", who, 1))
	}
	return s
}
