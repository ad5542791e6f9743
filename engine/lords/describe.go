package lords

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/i18n"
)

// Describe gives a one-line summary of a (possibly redacted) event in en, fr
// or it (others fall back to English), from the engine's catalog, as a
// sentence with its full stop, as Swords and Bagpipes' lines are. It shows
// only the cards the event holds, so a redacted event reveals nothing
// hidden.
func (g *Game) Describe(e engine.Event, names []string, code string) string {
	p := texts.In(code)
	return sentence(describe(e, names, p, func(rank int) string { return g.d.cardName(rank, p.Lang()) }))
}

// sentence ends a line made of the catalog's parts (an event and its
// suffixes: "(Makgill's power)", "; staying in play: …") with a full stop,
// unless it is empty or already ends with one.
func sentence(s string) string {
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// describe is Describe with the catalog bound to the language and the
// cards named in it. %[1]s is always the acting player's name.
func describe(e engine.Event, names []string, p i18n.Printer, name func(int) string) string {
	who := func(seat int) string {
		if seat >= 0 && seat < len(names) && names[seat] != "" {
			return names[seat]
		}
		return p.T("seat", seat)
	}
	switch e := e.(type) {
	case TurnStarted:
		if e.Card != 0 {
			return p.T("event.turn_flip", who(e.Seat), e.Round, e.Turn, name(e.Card))
		}
		return p.T("event.turn", who(e.Seat), e.Round, e.Turn)
	case Recruited:
		switch {
		case e.FaceUp:
			return p.T("event.recruit_up", who(e.Seat), name(e.Card))
		case e.Card != 0:
			return p.T("event.recruit_down_seen", who(e.Seat), name(e.Card))
		}
		return p.T("event.recruit_down", who(e.Seat))
	case Mustered:
		var s string
		switch {
		case e.FaceUp:
			s = p.T("event.muster_up", who(e.Seat), name(e.Card))
		case e.Card != 0:
			s = p.T("event.muster_down_seen", who(e.Seat), name(e.Card))
		default:
			s = p.T("event.muster_down", who(e.Seat))
		}
		if e.Extra {
			s += p.T("event.extra")
		}
		return s
	case Passed:
		return p.T("event.passed", who(e.Seat))
	case PowerDeclined:
		return p.T("event.declined", who(e.Seat), name(e.Card))
	case PowerUsed:
		s := p.T("event.used", who(e.Seat), name(e.Card), effectText(e.Power, p.Lang()))
		if e.Drawn != 0 {
			s += p.T("event.drew", name(e.Drawn))
		}
		return s
	case Copied:
		return p.T("event.copied", who(e.Seat), name(e.Card), name(e.Copied), effectText(e.Power, p.Lang()))
	case Swapped:
		if e.Taken == 0 {
			return p.T("event.swapped_hidden", who(e.Seat), name(e.Card), who(e.Target))
		}
		taken := name(e.Taken)
		if !e.FaceUp {
			taken = p.T("event.face_down", taken)
		}
		return p.T("event.swapped", who(e.Seat), name(e.Card), who(e.Target), taken)
	case Discarded:
		return p.T("event.discarded", who(e.Seat), who(e.Target), name(e.Discarded), name(e.Card))
	case SupporterSwapped:
		return p.T("event.cockburn", who(e.Seat), name(e.Card), name(e.Supporter))
	case RoundScored:
		if len(e.Armies) == 0 || len(e.Armies[0].Cards) == 0 {
			return p.T("event.scored_none", e.Round)
		}
		var parts []string
		for _, a := range e.Armies {
			if len(a.Cards) > 0 {
				parts = append(parts, p.T("event.army_total", who(a.Seat), a.Total))
			}
		}
		return p.T("event.scored", who(e.Armies[0].Seat), e.Round, strings.Join(parts, ", "))
	case Claimed:
		return p.T("event.claimed", who(e.Seat), name(e.Card))
	case RoundEnded:
		s := p.T("event.ended", who(e.Initiative), e.Round)
		if len(e.Kept) > 0 {
			var kept []string
			for _, c := range e.Kept {
				kept = append(kept, name(c))
			}
			s += p.T("event.kept", strings.Join(kept, ", "))
		}
		return s
	case RoundStarted:
		var parts []string
		for _, c := range e.Supporters {
			parts = append(parts, name(c))
		}
		return p.T("event.started", e.Round, strings.Join(parts, ", "))
	case GameEnded:
		if len(e.Ranking) == 0 {
			return ""
		}
		return p.T("event.game_ended", who(e.Ranking[0].Seat), e.Ranking[0].Points)
	}
	return fmt.Sprintf("%v", e)
}
