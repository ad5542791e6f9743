package enginetest

import (
	"fmt"
	"slices"

	"pbem/engine"
)

// explainLangs are the languages Explain is checked in.
var explainLangs = []string{"en", "fr", "it"}

// checkExplain checks State.Explain for every seat (Spectator included)
// in every language: each explanation has a kind and a text, and, when
// o.Plant is set, a copy of s with another seat's hidden card changed
// (chosen by k) gives every seat the same explanations: an explanation
// never tells a card or a choice its seat may not know. It counts the
// explanations by kind in stats.
func checkExplain(s engine.State, o Options, k int, stats *Stats) error {
	for seat := engine.Spectator; seat < s.Players(); seat++ {
		var planted engine.State
		if o.Plant != nil {
			if p, ok := o.Plant(s, seat, k); ok {
				planted = p
			}
		}
		for _, lang := range explainLangs {
			ex := s.Explain(seat, lang)
			for _, e := range ex {
				if e.Kind == "" || e.Text == "" {
					return fmt.Errorf("explanation %+v for seat %d (%s) lacks a kind or a text", e, seat, lang)
				}
				if lang == explainLangs[0] {
					if stats.Explained == nil {
						stats.Explained = map[string]int{}
					}
					stats.Explained[e.Kind]++
				}
			}
			if planted == nil {
				continue
			}
			if other := planted.Explain(seat, lang); !slices.Equal(ex, other) {
				return fmt.Errorf("the explanation for seat %d (%s) changes with another seat's hidden card:\n%q\n%q", seat, lang, ex, other)
			}
		}
	}
	return nil
}
