package inbound

import (
	"slices"
	"testing"
)

// TestGreetingLinesBeforeTheMovesAreSkipped: the salutations people start
// a reply with, in English, French and Italian, are skipped before the
// first move line and named; a line after a move, a move's label that
// starts like a greeting, a long line or one with a number is not.
func TestGreetingLinesBeforeTheMovesAreSkipped(t *testing.T) {
	t.Parallel()
	labels := []string{"Collect taxes (+1 gold)", "Hire a piper", "Cara Mia's reel"}
	cases := []struct {
		name    string
		lines   []string
		skipped []string
		moves   []string
	}{
		{"en", []string{"Hi Ann,", "3", "1"}, []string{"Hi Ann,"}, []string{"3", "1"}},
		{"en two lines", []string{"Hello everyone!", "Dear Bob,", "2"}, []string{"Hello everyone!", "Dear Bob,"}, []string{"2"}},
		{"en good evening", []string{"Good evening all", "collect taxes"}, []string{"Good evening all"}, []string{"collect taxes"}},
		{"fr", []string{"Bonsoir !", "3", "1"}, []string{"Bonsoir !"}, []string{"3", "1"}},
		{"fr accents", []string{"Chère Ann,", "Salut à tous", "1"}, []string{"Chère Ann,", "Salut à tous"}, []string{"1"}},
		{"it", []string{"Ciao a tutti", "2"}, []string{"Ciao a tutti"}, []string{"2"}},
		{"it short", []string{"Ciao!", "Buonasera", "2"}, []string{"Ciao!", "Buonasera"}, []string{"2"}},
		{"after a move", []string{"1", "Hi Ann,"}, nil, []string{"1", "Hi Ann,"}},
		{"a label like a greeting", []string{"Cara Mia's reel"}, nil, []string{"Cara Mia's reel"}},
		{"a number in it", []string{"Hi, 3 please", "1"}, nil, []string{"Hi, 3 please", "1"}},
		{"long", []string{"Hello, I would like to collect taxes now", "1"}, nil, []string{"Hello, I would like to collect taxes now", "1"}},
		{"greeting alone", []string{"Ciao!"}, nil, []string{"Ciao!"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, skipped := parsed{moves: c.lines}.withoutGreetings(labels)
			if !slices.Equal(skipped, c.skipped) || !slices.Equal(p.moves, c.moves) {
				t.Errorf("%q: skipped %q, moves %q; want %q, %q", c.lines, skipped, p.moves, c.skipped, c.moves)
			}
		})
	}
	// A greeting alone beside a chat line is skipped: the chat is what the
	// reply says.
	p, skipped := parsed{moves: []string{"Bonjour"}, chat: []string{"bonne chance"}}.withoutGreetings(labels)
	if len(p.moves) != 0 || !slices.Equal(skipped, []string{"Bonjour"}) {
		t.Errorf("greeting beside a chat line: moves %q, skipped %q", p.moves, skipped)
	}
}
