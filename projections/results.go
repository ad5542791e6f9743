package projections

import "pbem/engine"

// Ranking is one seat's place in a finished game.
type Ranking struct {
	Seat   int            `json:"seat"`
	Name   string         `json:"name"`
	Place  int            `json:"place"`
	Score  int            `json:"score"`
	Detail map[string]int `json:"detail,omitempty"`
}

// Rankings names the seats of r with names.
func Rankings(r *engine.Result, names []string) []Ranking {
	out := make([]Ranking, len(r.Ranking))
	for i, s := range r.Ranking {
		out[i] = Ranking{Seat: s.Seat, Place: s.Place, Score: s.Score, Detail: s.Detail}
		if s.Seat >= 0 && s.Seat < len(names) {
			out[i].Name = names[s.Seat]
		}
	}
	return out
}

// Standings is the result of the finished game g told in lang, with its
// players' names, from its final state st (engine.State.Standings): what
// decided the ranking and the figures that did. Nil when st is nil or has
// no result.
func Standings(g *Game, st engine.State, lang string) *engine.Standings {
	if st == nil {
		return nil
	}
	return speak(g, st, lang).Standings()
}

// seatName is names[seat], "" for a seat names does not hold.
func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) {
		return names[seat]
	}
	return ""
}
