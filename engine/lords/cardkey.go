package lords

import (
	"strconv"

	"pbem/engine"
)

// The keys of the table's cards a move can be about (engine.About's
// Card): a recruit by its place, a card of the hand or a supporter by its
// rank, a follower by its seat and its place in that seat's army. A page
// names the cards of a view by the same functions, and offers each the
// moves about it.

// RecruitCard is the key of the recruit at place slot (0 to 4).
func RecruitCard(slot int) string { return "recruit:" + strconv.Itoa(slot) }

// HandCard is the key of the card of rank in the mover's hand.
func HandCard(rank int) string { return "hand:" + strconv.Itoa(rank) }

// SupporterCard is the key of the supporter of rank.
func SupporterCard(rank int) string { return "supporter:" + strconv.Itoa(rank) }

// FollowerCard is the key of the follower at index in seat's army.
func FollowerCard(seat, index int) string {
	return "army:" + strconv.Itoa(seat) + ":" + strconv.Itoa(index)
}

// About implements engine.Move: the move's type, and the card it is about
// (none for a power's yes or no).
func (m *Move) About() engine.About {
	a := engine.About{Kind: m.Type}
	switch m.Type {
	case MoveRecruit:
		a.Card = RecruitCard(m.Slot)
	case MoveMuster:
		a.Card = HandCard(m.Card)
	case MoveClaim:
		a.Card = SupporterCard(m.Card)
	case MoveTarget, MoveCopy:
		if m.Card != 0 {
			a.Card = SupporterCard(m.Card)
		} else {
			a.Card = FollowerCard(m.Seat, m.Index)
		}
	}
	return a
}
