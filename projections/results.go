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
