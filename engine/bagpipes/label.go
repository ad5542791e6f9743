package bagpipes

import (
	"strings"

	"pbem/engine/i18n"
)

// labeling is what a move needs to describe itself: the card set (to name
// cards and say what they do), the players' names and the game's language.
// It is built once per state and never changed, so moves and clones share
// it; a label is written only when asked for (Move.Label), never while
// listing moves.
type labeling struct {
	set   *CardSet
	names []string
	lang  string // "" is English: see i18n.Norm
}

// labels is the state's labeling (a state built without one, in a test,
// gets a fresh one).
func (s *state) labels() *labeling {
	if s.lab != nil {
		return s.lab
	}
	return &labeling{set: s.Set, names: s.Names, lang: i18n.Norm(s.Lang)}
}

// language is the labeling's language, normalised ("" is "en").
func (l *labeling) language() string { return i18n.Norm(l.lang) }

// playerName is the name of seat, or a neutral "Player 2" (numbered from 1)
// in lang. Describe and the labels share it.
func playerName(names []string, seat int, lang string) string {
	if seat >= 0 && seat < len(names) {
		if n := strings.TrimSpace(names[seat]); n != "" {
			return n
		}
	}
	return texts.T(lang, "player", seat+1)
}

// label writes m's label in l's language with l's names. English and
// French use the rulebooks' words for the actions (French buttons in the
// infinitive, as the French rulebook names them); Italian buttons are
// imperatives.
func (l *labeling) label(m Move) string {
	p := texts.In(l.language())
	name := func(seat int) string { return playerName(l.names, seat, p.Lang()) }
	switch m.Type {
	case MoveReplenish:
		t := m.Action
		if key := "act." + m.Action; texts.Has(key) {
			t = p.T(key)
		}
		if m.step > 0 {
			t = p.T("move.stay", t, m.step)
		}
		return t
	case MoveRelocate:
		return p.T("move.relocate", m.Units)
	case MovePlay:
		return l.playLabel(m, p)
	case MoveEndTurn:
		return p.T("move.end_turn")
	case MovePass:
		return p.T("move.pass")
	case MovePassBadge:
		return p.T("move.give", name(m.To))
	case MoveKeepBadge:
		return p.T("move.keep")
	case MoveStayHome:
		return p.T("move.token", name(m.To))
	case MoveChoose:
		t := m.Side
		if key := "move.side." + m.Side; texts.Has(key) {
			t = p.T(key)
		}
		if m.Dagger > 0 {
			t += p.T("move.offer", m.Dagger)
		}
		return t
	}
	return m.Type
}

// playLabel writes "Play <card> on <name>: <text>", the text saying what
// the card does as the move plays it: with the units it chose ("You add 3
// units to your castle", where the card says "up to 6"), so that the
// moves of one card differ where they differ. Without the card set (a
// label of an unknown card) it says "with <n> units".
func (l *labeling) playLabel(m Move, p i18n.Printer) string {
	cardName, text := m.Card, ""
	if l.set != nil {
		if c, ok := l.set.bagByID[m.Card]; ok {
			cardName, text = l.set.bagName(c, p.Lang()), l.set.texts[p.Lang()][c]
			if m.Units >= 0 {
				text = playText(l.set.Bagpipes[c].Effects, p.Lang(), m.Units)
			}
		}
	}
	var b strings.Builder
	b.WriteString(p.T("move.play", cardName))
	if m.Target >= 0 {
		b.WriteString(p.T("move.on", playerName(l.names, m.Target, p.Lang())))
	}
	if m.Units >= 0 && text == "" {
		b.WriteString(p.T("move.with", m.Units))
	}
	if text != "" {
		b.WriteString(p.T("move.text", text))
	}
	return b.String()
}
