package bagpipes

import (
	"pbem/engine"
)

// Describe gives a one-line summary of e in lang (en, fr, it; English
// otherwise), from the engine's catalog. It only uses the public part of
// the event, so it never reveals a choice, a dagger or a drawn card, even
// given an unredacted event.
func (g Game) Describe(e engine.Event, names []string, lang string) string {
	if d := g.describe(e, names, lang); d != "" {
		return d
	}
	return e.EventType()
}

func (Game) describe(e engine.Event, names []string, lang string) string {
	p := texts.In(lang)
	name := func(seat int) string { return playerName(names, seat, p.Lang()) }
	switch e := e.(type) {
	case RoundStarted:
		return p.T("event.round", e.Round, cardName(p.Lang(), e.Army, e.Name))
	case Replenished:
		if !texts.Has("event.replenish." + e.Action) {
			return ""
		}
		if e.Stay {
			return p.T("event.stay", name(e.Seat), p.T("event.stay_action."+e.Action))
		}
		return p.T("event.replenish."+e.Action, name(e.Seat))
	case Relocated:
		return p.T("event.relocate", name(e.Seat), e.Units)
	case CardPlayed:
		draws := ""
		if len(e.Draws) > 0 {
			draws = p.T("event.draws", len(e.Draws))
		}
		card := cardName(p.Lang(), e.Card, e.Name)
		if e.Target >= 0 {
			return p.T("event.play_on", name(e.Seat), card, name(e.Target), draws)
		}
		return p.T("event.play", name(e.Seat), card, draws)
	case TurnEnded:
		return p.T("event.turn", name(e.Seat))
	case BadgePassed:
		if e.Moved > 0 {
			return p.T("event.badge_moved", name(e.From), name(e.To), e.Moved)
		}
		return p.T("event.badge", name(e.From), name(e.To))
	case BadgeKept:
		return p.T("event.keep", name(e.Seat))
	case StayHomeGiven:
		return p.T("event.stay_given", name(e.From), name(e.To))
	case StayedHome:
		return p.T("event.stayed", name(e.Seat))
	case ChoiceMade:
		// The side is in the chooser's own version only (Redact): its
		// history tells it the side it chose, the others' that it chose.
		if texts.Has("event.choice." + e.Side) {
			return p.T("event.choice."+e.Side, name(e.Seat))
		}
		return p.T("event.choice", name(e.Seat))
	case Passed:
		return p.T("event.pass", name(e.Seat))
	case Battle:
		winner := e.Winner
		if texts.Has("side." + e.Winner) {
			winner = p.T("side." + e.Winner)
		}
		return p.T("event.battle", e.Scotland, e.England, winner)
	case Awards:
		return p.T("event.awards")
	case RoundEnded:
		return p.T("event.end", e.Round)
	case GameEnded:
		if e.Reason == "five_daggers" {
			return p.T("event.five", name(e.Traitor))
		}
		return p.T("event.over")
	}
	return e.EventType()
}
