package enginetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"pbem/engine"
)

// GameTexts plays one game of setup with uniformly random listed moves
// (seeded by seed) and returns every text the engine writes for players on
// the way, in setup.Language: the option labels and help lines, the label
// of every listed move at every step, the description of every event as
// each seat and a spectator see it (and unredacted), the result summary,
// and what extra returns for the state after each move (the engine's view
// texts: prompts, card texts; extra may be nil).
func GameTexts(g engine.Game, setup engine.Setup, seed uint64, extra func(st engine.State) []string) ([]string, error) {
	var out []string
	for _, o := range g.Settings(setup.Language).Options {
		out = append(out, o.Label, o.Help)
		for _, v := range o.Values {
			out = append(out, v.Label)
		}
	}
	s, err := g.New(setup)
	if err != nil {
		return nil, fmt.Errorf("new: %w", err)
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	for moves := 0; s.Result() == nil; moves++ {
		if moves > 100000 {
			return nil, errors.New("no end after 100000 moves")
		}
		tm := s.ToMove()
		if len(tm) == 0 {
			return nil, errors.New("no result but nobody to move")
		}
		for _, seat := range tm {
			for _, m := range s.Legal(seat) {
				out = append(out, m.Label())
			}
		}
		seat := tm[r.IntN(len(tm))]
		legal := s.Legal(seat)
		evs, err := s.Decide(seat, legal[r.IntN(len(legal))])
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", moves, err)
		}
		for _, e := range evs {
			out = append(out, g.Describe(e, setup.Names, setup.Language))
			for seat := engine.Spectator; seat < s.Players(); seat++ {
				out = append(out, g.Describe(g.Redact(e, seat), setup.Names, setup.Language))
			}
			s.Apply(e)
		}
		if extra != nil {
			out = append(out, extra(s)...)
		}
	}
	return append(out, s.Result().Summary), nil
}

// verbs matches a fmt verb of a catalog message ("%s", "%[2]d", "%%").
var verbs = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// words splits s into lower-case words (runs of letters).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// EnglishWords reads the English catalog file name from fsys (a JSON
// object of messages, each a string or an object of plural forms, as
// engine/i18n reads it) and returns the words of two letters or more of
// its multi-word messages, fmt verbs aside (a single letter, "a" or the
// "s" of "'s", tells no language), less the allowed words (proper names
// and the words that are the same in the other languages, each justified
// where the list is written).
func EnglishWords(fsys fs.FS, name string, allowed ...string) (map[string]bool, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var msgs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	add := func(format string) {
		ws := words(verbs.ReplaceAllString(format, " "))
		if len(ws) < 2 {
			return
		}
		for _, w := range ws {
			if utf8.RuneCountInString(w) > 1 {
				set[w] = true
			}
		}
	}
	for key, m := range msgs {
		var format string
		if json.Unmarshal(m, &format) == nil {
			add(format)
			continue
		}
		var forms map[string]any
		if err := json.Unmarshal(m, &forms); err != nil {
			return nil, fmt.Errorf("%s: %q: %w", name, key, err)
		}
		for _, f := range forms {
			if s, ok := f.(string); ok {
				add(s)
			}
		}
	}
	for _, w := range allowed {
		delete(set, strings.ToLower(w))
	}
	return set, nil
}

// ForeignWords lists the texts that hold a word of english, each as
// "word: text", sorted and without repeats.
func ForeignWords(texts []string, english map[string]bool) []string {
	var found []string
	for _, t := range texts {
		for _, w := range words(t) {
			if english[w] {
				found = append(found, w+": "+t)
				break
			}
		}
	}
	slices.Sort(found)
	return slices.Compact(found)
}

// MissedElisions lists the French texts where "de", "que", "le" or "la"
// stands before one of names that starts with a vowel or an h, unelided
// ("de Élodie" for "d'Élodie"), each as "missed: text".
func MissedElisions(texts, names []string) []string {
	var found []string
	for _, n := range names {
		if !strings.ContainsRune("AEIOUYHÀÂÉÈÊËÎÏÔÖÙÛÜŒÆaeiouyhàâéèêëîïôöùûüœæ", []rune(n + " ")[0]) {
			continue
		}
		for _, w := range []string{"de", "que", "le", "la", "De", "Que", "Le", "La"} {
			for _, t := range texts {
				if strings.HasPrefix(t, w+" "+n) || strings.Contains(t, " "+w+" "+n) || strings.Contains(t, "("+w+" "+n) {
					found = append(found, w+" "+n+": "+t)
				}
			}
		}
	}
	slices.Sort(found)
	return slices.Compact(found)
}
