package lords

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"pbem/engine/i18n"
)

// labeling is what a move needs to describe itself: the deck (to name
// cards), the players' names and the game's language. It is built once per
// state and never changed, so moves and clones share it.
type labeling struct {
	d     *deck
	names []string
	lang  string
	// plain: neither names nor a language were given (a game set up before
	// they existed); its result summary keeps the first wording.
	plain bool
}

// newLabeling normalises the language ("en", "fr" or "it"; anything else is
// "en").
func newLabeling(d *deck, names []string, lang string) *labeling {
	return &labeling{d: d, names: names, lang: i18n.Norm(lang), plain: len(names) == 0 && lang == ""}
}

// labels is the state's labeling (a state built without one, in a test,
// gets a fresh English one).
func (s *State) labels() *labeling {
	if s.lab != nil {
		return s.lab
	}
	return newLabeling(s.d, s.Names, s.Lang)
}

// t formats the catalog message key in the labeling's language.
func (l *labeling) t(key string, args ...any) string { return texts.T(l.lang, key, args...) }

// card names the card of rank in the labeling's language.
func (l *labeling) card(rank int) string { return l.d.cardName(rank, l.lang) }

// player is the name of seat, or a neutral "Player N" (N from 1).
func (l *labeling) player(seat int) string {
	if seat >= 0 && seat < len(l.names) {
		if n := strings.TrimSpace(l.names[seat]); n != "" {
			return n
		}
	}
	return l.t("player", seat+1)
}

// lowerFirst lowers the first letter of s ("Échanger" → "échanger").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// describe is the label of m in its labeling's language.
func (m *Move) describe() string {
	l := m.lab
	power := func() string { return lowerFirst(powerText(m.power, l.lang)) }
	switch m.Type {
	case MoveRecruit:
		if m.show != 0 {
			return l.t("move.recruit_up", l.card(m.show), m.Slot+1)
		}
		return l.t("move.recruit_down", m.Slot+1)
	case MoveMuster:
		if m.FaceUp {
			return l.t("move.muster_up", l.card(m.Card))
		}
		return l.t("move.muster_down", l.card(m.Card))
	case MovePower:
		if m.Use {
			return l.t("move.use", l.card(m.show), power())
		}
		return l.t("move.decline", l.card(m.show))
	case MoveCopy:
		return l.t("move.copy", l.card(m.show), l.player(m.Seat), power())
	case MoveClaim:
		return l.t("move.claim", l.card(m.Card))
	case MoveTarget:
		if m.power == Cockburn {
			return l.t("move.cockburn", l.card(m.Card))
		}
		what := l.t("move.hidden_at", m.Index+1)
		if m.show != 0 {
			what = l.card(m.show)
		}
		if m.power == Fergusson {
			return l.t("move.fergusson", what, l.player(m.Seat))
		}
		return l.t("move.wemyss", what, l.player(m.Seat))
	}
	return m.Type
}

// summary is the one-line account of the end of the game. A game set up
// without names or language keeps the first wording ("Seat 1 wins ...",
// seats from 0, in English), so that an old game replays to the same
// result: that wording is a stored result's, not a translation, and stays
// out of the catalog.
func (l *labeling) summary(r []Place, win Place) string {
	tie := len(r) > 1 && r[1].Points == win.Points
	if l.plain {
		s := fmt.Sprintf("Seat %d wins with %d supporter strength", win.Seat, win.Points)
		if tie {
			s += fmt.Sprintf(" (tie broken by a better place in the final round: %d)", win.RoundPlace)
		}
		return s
	}
	s := l.t("result.summary", l.player(win.Seat), win.Points)
	if tie {
		s += l.t("result.tie", win.RoundPlace)
	}
	return s
}
