package lords

import "pbem/engine"

// Reversible implements engine.Game: a move may be taken back when its
// events revealed nothing and drew nothing. A follower mustered face-down,
// a declined power, a claim, a power on face-up followers (Cockburn,
// Fergusson or Wemyss on a face-up follower, Makgill, Bruce, Cochrane,
// MacDonnell, a Scott copying one of them) can be; a recruit (its place is
// refilled from the pile, a face-down recruit is seen), a follower mustered
// face-up, Forsyth's draw, a turn that turns a recruit face-up, a reshuffle,
// the scoring of a round, a new round and the end of the game cannot.
func (g *Game) Reversible(evs []engine.Event) bool {
	if len(evs) == 0 {
		return false
	}
	for _, e := range evs {
		if !reversible(e) {
			return false
		}
	}
	return true
}

// reversible reports whether one event reveals nothing and draws nothing.
func reversible(e engine.Event) bool {
	switch e := e.(type) {
	case TurnStarted:
		return e.Slot < 0 // no recruit was turned face-up
	case Recruited:
		return e.FaceUp && e.Replacement == 0 && !e.Reshuffled
	case Mustered:
		return !e.FaceUp
	case PowerUsed:
		return e.Drawn == 0 && !e.Reshuffled && e.Power != Forsyth
	case Swapped:
		return e.FaceUp
	case Discarded:
		return e.FaceUp
	case Passed, PowerDeclined, Copied, SupporterSwapped, Claimed:
		return true
	}
	// RoundScored, RoundEnded, RoundStarted, GameEnded and anything unknown.
	return false
}
