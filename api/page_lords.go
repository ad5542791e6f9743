package api

import (
	"fmt"
	"strings"

	"pbem/engine/i18n"
	"pbem/engine/lords"
)

// lordsCard is a card as the page draws it.
type lordsCard struct {
	Rank     int
	Clan     string // "" for a back or an empty place
	Class    string // CSS class of the clan
	Strength int
	Power    string // the clan's power, in the game's language (from the view)
	Back     bool   // face-down and unknown to this seat
	Down     bool   // face-down, but this seat knows it
	Empty    bool   // an empty recruit place
	Active   string
	Kept     bool
	Name     string // "Wemyss 5"
	// Changed marks a card that came here (or turned) since the seat last
	// looked (see page_catchup.go).
	Changed bool
	// Moves are the moves a tap on the card offers (page_play_cards.go).
	Moves []moveButton
}

// lordsSeat is one player's table as the page draws it.
type lordsSeat struct {
	Seat      int
	Name      string
	You       bool
	ToMove    bool
	HandCount int
	Points    int
	Army      []lordsCard
	Claimed   []lordsCard
}

// lordsPage is the Lords of Scotland part of a play page.
type lordsPage struct {
	Info       []string
	Hand       []lordsCard
	Recruits   []lordsCard
	Supporters []lordsCard
	Seats      []lordsSeat
	Piles      string
	// Other are the seat's moves about no card (a power's yes or no).
	Other []moveButton
}

// lordsData reads a Lords of Scotland view into the page's data, naming
// the seats with names; the cards' powers come from the view.
func lordsData(cat i18n.Printer, v lords.View, names []string) *lordsPage {
	lp := &lordsPage{}
	// card draws c; down: face-down, known to this seat only.
	card := func(c lords.CardView, down bool, active string, kept bool) lordsCard {
		if c.Hidden || c.Rank == 0 {
			return lordsCard{Back: true}
		}
		return lordsCard{Rank: c.Rank, Clan: c.Clan, Class: "clan-" + strings.ToLower(c.Clan), Strength: c.Strength,
			Power: c.Power, Down: down, Active: active, Kept: kept,
			Name: cat.T("lords.card", c.Clan, c.Strength)}
	}
	for _, c := range v.Hand {
		lp.Hand = append(lp.Hand, card(c, false, "", false))
	}
	for _, r := range v.Recruits {
		switch {
		case r.Empty:
			lp.Recruits = append(lp.Recruits, lordsCard{Empty: true})
		case !r.FaceUp:
			lp.Recruits = append(lp.Recruits, lordsCard{Back: true})
		default:
			lp.Recruits = append(lp.Recruits, card(r.CardView, false, "", false))
		}
	}
	for _, c := range v.Supporters {
		lp.Supporters = append(lp.Supporters, card(c, false, "", false))
	}
	toMove := map[int]bool{}
	if v.Pending != nil {
		toMove[v.Pending.Seat] = true
	}
	for _, s := range v.Seats {
		ls := lordsSeat{Seat: s.Seat, Name: seatName(names, s.Seat), You: s.Seat == v.Seat, ToMove: toMove[s.Seat],
			HandCount: s.HandCount, Points: s.Points}
		for _, f := range s.Army {
			ls.Army = append(ls.Army, card(f.CardView, !f.FaceUp, f.Active, f.Kept))
		}
		for _, c := range s.Claimed {
			ls.Claimed = append(ls.Claimed, card(c, false, "", false))
		}
		lp.Seats = append(lp.Seats, ls)
	}
	switch v.Phase {
	case lords.PhaseClaim:
		lp.Info = append(lp.Info, cat.T("lords.round_claim", v.Round))
	case lords.PhasePlay:
		lp.Info = append(lp.Info, cat.T("lords.round_turn", v.Round, v.Turn))
	}
	if v.Phase == lords.PhasePlay || v.Phase == lords.PhaseClaim {
		lp.Info = append(lp.Info, cat.T("lords.initiative", seatName(names, v.Initiative)))
	}
	if v.Target > 0 {
		lp.Info = append(lp.Info, cat.T("lords.target", v.Target))
	}
	lp.Piles = cat.T("lords.draw_pile", v.DrawCount) + " " + cat.T("lords.discard_pile", v.DiscardN)
	return lp
}

// seatName is the name of seat, or "seat N".
func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("#%d", seat+1)
}

// lordsGroup gives a Lords of Scotland move's kind its group (a catalog
// key); its label is the engine's, already in the game's language with the players'
// names.
func lordsGroup(kind string) string {
	switch kind {
	case lords.MoveRecruit, lords.MoveMuster, lords.MoveClaim, lords.MovePower, lords.MoveCopy, lords.MoveTarget:
		return "move." + kind
	}
	return ""
}
