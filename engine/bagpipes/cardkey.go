package bagpipes

import "pbem/engine"

// HandCard is the key of the card id in the mover's hand (engine.About's
// Card): a page names the cards of a view's hand by it, and offers each
// the moves about it.
func HandCard(id string) string { return "bag:" + id }

// About implements engine.Move: the move's type, and for a card played
// the card of the hand it plays (the turn's other actions are about no
// card).
func (m Move) About() engine.About {
	a := engine.About{Kind: m.Type}
	if m.Type == MovePlay && m.Card != "" {
		a.Card = HandCard(m.Card)
	}
	return a
}
