package lords

import (
	"strconv"
	"strings"

	"pbem/engine"
)

// RoundSummary implements engine.Game: each army of the round that the
// last RoundEnded of round closes (its followers, total, whether it was
// doubled, its place) and the supporters each seat claimed, best army
// first, from the round's RoundScored and Claimed events (all public:
// every follower is face-up once the round is scored).
func (g *Game) RoundSummary(round []engine.Event, names []string, lang string) *engine.RoundSummary {
	round = engine.LastRound(round, g.RoundEnd)
	if round == nil {
		return nil
	}
	end := len(round) - 1
	p := texts.In(lang)
	var scored *RoundScored
	claims := map[int][]string{}
	for i := end - 1; i >= 0; i-- {
		if sc, ok := round[i].(RoundScored); ok {
			scored = &sc
			break
		}
		if c, ok := round[i].(Claimed); ok {
			claims[c.Seat] = append([]string{g.d.cardName(c.Card, p.Lang())}, claims[c.Seat]...)
		}
	}
	if scored == nil {
		return nil // the round's scoring is not in round
	}
	ended, ok := round[end].(RoundEnded)
	if !ok {
		return nil
	}
	s := &engine.RoundSummary{Round: ended.Round, Columns: []string{p.T("round.army"), p.T("round.total"), p.T("round.doubled"), p.T("round.place"), p.T("round.claimed")}}
	for _, a := range scored.Armies {
		cards := make([]string, len(a.Cards))
		for i, c := range a.Cards {
			cards[i] = g.d.cardName(c, p.Lang())
		}
		army, doubled, claimed := strings.Join(cards, ", "), p.T("round.no"), strings.Join(claims[a.Seat], ", ")
		if army == "" {
			army = p.T("round.no_army")
		}
		if a.Doubled {
			doubled = p.T("round.yes")
		}
		if claimed == "" {
			claimed = p.T("round.no_claim")
		}
		s.Rows = append(s.Rows, engine.RoundRow{Seat: a.Seat, Cells: []string{army, strconv.Itoa(a.Total), doubled, strconv.Itoa(a.Place), claimed}})
	}
	if ended.Initiative >= 0 {
		who := p.T("seat", ended.Initiative)
		if ended.Initiative < len(names) && names[ended.Initiative] != "" {
			who = names[ended.Initiative]
		}
		s.Notes = append(s.Notes, p.T("round.initiative", who))
	}
	return s
}
