package enginetest

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"pbem/engine"
	"pbem/engine/i18n"
	"pbem/engine/i18n/i18ntest"
)

// GameTexts plays one game of setup with uniformly random listed moves
// (seeded by seed) and returns every text the engine writes for players on
// the way, in setup.Language: the option labels and help lines, the label
// of every listed move at every step, the description of every event as
// each seat and a spectator see it (and unredacted), every round's summary
// (headings, cells, notes), the result summary, and what extra returns for
// the state after each move (the engine's view texts: prompts, card
// texts; extra may be nil).
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
	var log []engine.Event
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
			log = append(log, e)
			if g.RoundEnd(e) {
				if rs := g.RoundSummary(log, setup.Names, setup.Language); rs != nil {
					out = append(out, rs.Columns...)
					out = append(out, rs.Notes...)
					for _, r := range rs.Rows {
						out = append(out, r.Cells...)
					}
				}
			}
		}
		if extra != nil {
			out = append(out, extra(s)...)
		}
	}
	return append(out, s.Result().Summary), nil
}

// CheckTranslated plays one game of setup (GameTexts, with extra) in a
// language other than English and reports the texts that hold a word of
// cat's English messages (same: the words allowed in setup.Language, see
// i18ntest.UntranslatedWords) and, in French, those that miss an elision
// before a player's name. A game of fewer than 100 texts is an error too:
// it would prove nothing.
func CheckTranslated(g engine.Game, cat *i18n.Catalog, same []string, setup engine.Setup, seed uint64, extra func(st engine.State) []string) error {
	got, err := GameTexts(g, setup, seed, extra)
	if err != nil {
		return err
	}
	if len(got) < 100 {
		return fmt.Errorf("%d texts: the test would prove nothing", len(got))
	}
	var errs []error
	if setup.Language == "fr" {
		if bad := i18ntest.MissedElisions(got, setup.Names); len(bad) > 0 {
			errs = append(errs, fmt.Errorf("%d texts miss an elision: %v", len(bad), bad[:min(len(bad), 20)]))
		}
	}
	if bad := i18ntest.UntranslatedWords(cat, got, same); len(bad) > 0 {
		errs = append(errs, fmt.Errorf("%d texts hold English words: %v", len(bad), bad[:min(len(bad), 20)]))
	}
	return errors.Join(errs...)
}
