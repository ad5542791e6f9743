package bagpipes

import "pbem/engine"

// Reversible implements engine.Game: a move may be taken back when its
// events revealed nothing and drew nothing. A replenishment (taxes,
// militia, troops, mercenaries), a relocation, the end of a turn, the
// badge or the Stay Home! token handed on, staying home, a face-down
// choice (and dagger) and a pass can be; a bagpipe card played (it is
// turned face-up, and may draw), the army card of a new round, the battle
// (it reveals the choices), the awards (they draw), the end of a round and
// the end of the game cannot.
func (Game) Reversible(evs []engine.Event) bool {
	if len(evs) == 0 {
		return false
	}
	for _, e := range evs {
		switch e.(type) {
		case Replenished, Relocated, TurnEnded, BadgePassed, BadgeKept, StayHomeGiven, StayedHome, ChoiceMade, Passed:
		default:
			return false
		}
	}
	return true
}
