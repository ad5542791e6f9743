package api

import (
	"encoding/json"
	"strconv"
)

// The cards are the controls (issue #30): a card of the table that some
// legal moves are about (a recruit, a card of the hand, a supporter, a
// follower a power may target) opens, when tapped, the moves it allows;
// moves about no card (a power's yes or no, Swords and Bagpipes' turn
// actions) are offered by the seat's own tile. The full list of moves
// stays under the table for keyboards and screen readers.

// Keys of the cards moves are about: the place of a recruit, the rank of a
// Lords card in the hand or among the supporters, a follower by seat and
// place, a Swords and Bagpipes card by id.
func recruitKey(slot int) string   { return "recruit:" + strconv.Itoa(slot) }
func lordsHandKey(rank int) string { return "hand:" + strconv.Itoa(rank) }
func supporterKey(rank int) string { return "supporter:" + strconv.Itoa(rank) }
func followerKey(seat, index int) string {
	return "army:" + strconv.Itoa(seat) + ":" + strconv.Itoa(index)
}
func bagHandKey(id string) string { return "bag:" + id }

// fieldInt reads an integer field of a move ("" absent or not a number).
func fieldInt(m rawMove, name string) (int, bool) {
	raw, ok := m.Fields[name]
	if !ok {
		return 0, false
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, false
	}
	return n, true
}

// lordsCardKey names the card a Lords of Scotland move is about.
func lordsCardKey(m rawMove) string {
	switch m.Type {
	case "recruit":
		if n, ok := fieldInt(m, "slot"); ok {
			return recruitKey(n)
		}
	case "muster":
		if n, ok := fieldInt(m, "card"); ok {
			return lordsHandKey(n)
		}
	case "claim", "target", "copy":
		if n, ok := fieldInt(m, "card"); ok {
			return supporterKey(n)
		}
		seat, ok1 := fieldInt(m, "seat")
		index, ok2 := fieldInt(m, "index")
		if ok1 && ok2 {
			return followerKey(seat, index)
		}
	}
	return ""
}

// bagCardKey names the card a Swords and Bagpipes move is about (a card
// of the hand played).
func bagCardKey(m rawMove) string {
	if m.Type != "play" {
		return ""
	}
	var id string
	if err := json.Unmarshal(m.Fields["card"], &id); err != nil || id == "" {
		return ""
	}
	return bagHandKey(id)
}

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
			lp.Hand[i].Moves = take(lordsHandKey(lp.Hand[i].Rank))
		}
		for i := range lp.Recruits {
			if !lp.Recruits[i].Empty {
				lp.Recruits[i].Moves = take(recruitKey(i))
			}
		}
		for i := range lp.Supporters {
			lp.Supporters[i].Moves = take(supporterKey(lp.Supporters[i].Rank))
		}
		for _, s := range lp.Seats {
			for i := range s.Army {
				s.Army[i].Moves = take(followerKey(s.Seat, i))
			}
		}
	case d.Bag != nil:
		for i := range d.Bag.Hand {
			d.Bag.Hand[i].Moves = take(bagHandKey(d.Bag.Hand[i].ID))
		}
	}
}
