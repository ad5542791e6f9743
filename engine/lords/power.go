package lords

// canActivate reports whether card, mustered face-up now, meets the
// activation condition:
// with 2–3 players no other face-up follower of the skirmish has a strictly
// lower strength (ruling 3); with 4–5 players no other face-up follower of
// the same clan has an equal or lower strength (ruling 4). Face-down
// followers never block.
func (s *State) canActivate(card int) bool {
	str, cl := s.d.strength(card), s.d.clan(card)
	for _, army := range s.Armies {
		for _, f := range army {
			if !f.FaceUp || f.Card == card {
				continue
			}
			fs := s.d.strength(f.Card)
			if s.N <= 3 {
				if fs < str {
					return false
				}
			} else if s.d.clan(f.Card) == cl && fs <= str {
				return false
			}
		}
	}
	return true
}

// useful reports whether the power p, activated for seat's card, can have
// an effect; the activation is only offered then. handAfter is the size of
// seat's hand once the card is in play.
func (s *State) useful(seat, card int, p Clan, handAfter int) bool {
	switch p {
	case Makgill:
		return handAfter > 0
	case Forsyth:
		return s.canDraw()
	case Cockburn:
		return len(s.Supporters) > 0
	case Fergusson:
		for q, army := range s.Armies {
			if q != seat && len(army) > 0 {
				return true
			}
		}
		return false
	case Wemyss:
		for _, army := range s.Armies {
			for _, f := range army {
				if f.Card != card {
					return true
				}
			}
		}
		return false
	case Scott:
		return len(s.copyTargets(seat, card, handAfter)) > 0
	case Bruce, Cochrane, MacDonnell:
		return true
	}
	return false
}

// followerRef names a follower by army and position.
type followerRef struct{ seat, index int }

// copyTargets lists the followers a Scott (card, of seat) may copy: face-up,
// not a Scott, whose power would have an effect for the Scott (ruling 9).
func (s *State) copyTargets(seat, card, handAfter int) []followerRef {
	var out []followerRef
	for q, army := range s.Armies {
		for i, f := range army {
			if !f.FaceUp || f.Card == card || s.d.clan(f.Card) == Scott {
				continue
			}
			if s.useful(seat, card, s.d.clan(f.Card), handAfter) {
				out = append(out, followerRef{q, i})
			}
		}
	}
	return out
}

// endOfRoundPower is the end-of-round power active on f for its controller.
func endOfRoundPower(f Follower) Clan {
	if f.Kept {
		return noClan
	}
	return f.Power
}
