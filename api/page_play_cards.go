package api

import (
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
)

// The cards are the controls (issue #30): a card of the table that some
// legal moves are about (a recruit, a card of the hand, a supporter, a
// follower a power may target) opens, when tapped, the moves it allows;
// moves about no card (a power's yes or no, Swords and Bagpipes' turn
// actions) are offered by the seat's own tile. The full list of moves
// stays under the table for keyboards and screen readers.

// A move says which card it is about (engine.About's Card), by the key its
// game's package gives the card (lords.HandCard, bagpipes.HandCard...);
// cardMoves names the view's cards by the same functions.

// cardMoves hands the page's moves out to the cards they are about; the
// moves no card shows are the seat's own tile's (Other). A page asking to
// confirm a move offers none on its cards (it is called again once
// Confirm is set).
func (d *playPage) cardMoves() {
	byCard := map[string][]moveButton{}
	var keys []string
	for _, g := range d.Groups {
		for _, m := range g.Moves {
			if _, ok := byCard[m.Card]; !ok {
				keys = append(keys, m.Card)
			}
			byCard[m.Card] = append(byCard[m.Card], m)
		}
	}
	used := map[string]bool{}
	take := func(key string) []moveButton {
		if key == "" || d.Confirm != nil {
			return nil
		}
		used[key] = true
		return byCard[key]
	}
	var other []moveButton
	defer func() {
		for _, k := range keys {
			if !used[k] && d.Confirm == nil {
				other = append(other, byCard[k]...)
			}
		}
		if d.Lords != nil {
			d.Lords.Other = other
		}
		if d.Bag != nil {
			d.Bag.Other = other
		}
	}()
	switch {
	case d.Lords != nil:
		lp := d.Lords
		for i := range lp.Hand {
			lp.Hand[i].Moves = take(lords.HandCard(lp.Hand[i].Rank))
		}
		for i := range lp.Recruits {
			if !lp.Recruits[i].Empty {
				lp.Recruits[i].Moves = take(lords.RecruitCard(i))
			}
		}
		for i := range lp.Supporters {
			lp.Supporters[i].Moves = take(lords.SupporterCard(lp.Supporters[i].Rank))
		}
		for _, s := range lp.Seats {
			for i := range s.Army {
				s.Army[i].Moves = take(lords.FollowerCard(s.Seat, i))
			}
		}
	case d.Bag != nil:
		for i := range d.Bag.Hand {
			d.Bag.Hand[i].Moves = take(bagpipes.HandCard(d.Bag.Hand[i].ID))
		}
		// A card of the "x2" symbol on the seat's own table plays once
		// more: it offers that play as a card of the hand does.
		for _, pl := range d.Bag.Players {
			if pl.You {
				for i := range pl.Table {
					pl.Table[i].Moves = take(bagpipes.HandCard(pl.Table[i].ID))
				}
			}
		}
	}
}
