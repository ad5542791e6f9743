package api

import (
	"encoding/json"
	"fmt"
	"strings"

	"pbem/engine/i18n"
)

// lordsName is the registry name of Lords of Scotland.
const lordsName = "lords-of-scotland"

// lordsCardJSON is a card of the Lords of Scotland view JSON (a hand card,
// a follower, a recruit, a supporter).
type lordsCardJSON struct {
	Rank     int    `json:"rank"`
	Clan     string `json:"clan"`
	Strength int    `json:"strength"`
	Power    string `json:"power"`
	Hidden   bool   `json:"hidden"`
	FaceUp   bool   `json:"face_up"`
	Active   string `json:"active"`
	Kept     bool   `json:"kept"`
	Empty    bool   `json:"empty"`
}

// lordsViewJSON is the part of the Lords of Scotland view the page shows.
type lordsViewJSON struct {
	Seat       int             `json:"seat"`
	Round      int             `json:"round"`
	Turn       int             `json:"turn"`
	Phase      string          `json:"phase"`
	Initiative int             `json:"initiative"`
	Hand       []lordsCardJSON `json:"hand"`
	Seats      []struct {
		Seat      int             `json:"seat"`
		HandCount int             `json:"hand_count"`
		Army      []lordsCardJSON `json:"army"`
		Claimed   []lordsCardJSON `json:"claimed"`
		Points    int             `json:"points"`
	} `json:"seats"`
	Recruits   []lordsCardJSON `json:"recruits"`
	Supporters []lordsCardJSON `json:"supporters"`
	DrawCount  int             `json:"draw_count"`
	DiscardN   int             `json:"discard_count"`
	Pending    *struct {
		Seat int `json:"seat"`
	} `json:"pending"`
	Target int `json:"target_points"`
}

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

// lordsData reads a Lords of Scotland view (JSON) into the page's data,
// naming the seats with names; the cards' powers come from the view.
func (p *pages) lordsData(cat i18n.Printer, raw []byte, names []string) (*lordsPage, error) {
	var v lordsViewJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("api: lords view: %w", err)
	}
	lp := &lordsPage{}
	card := func(c lordsCardJSON) lordsCard {
		switch {
		case c.Empty:
			return lordsCard{Empty: true}
		case c.Hidden || c.Rank == 0:
			return lordsCard{Back: true}
		}
		return lordsCard{Rank: c.Rank, Clan: c.Clan, Class: "clan-" + strings.ToLower(c.Clan), Strength: c.Strength,
			Power: c.Power, Down: !c.FaceUp, Active: c.Active, Kept: c.Kept,
			Name: cat.T("lords.card", c.Clan, c.Strength)}
	}
	for _, c := range v.Hand {
		c.FaceUp = true
		lp.Hand = append(lp.Hand, card(c))
	}
	for _, c := range v.Recruits {
		if !c.FaceUp && !c.Empty {
			c.Hidden = true
		}
		lp.Recruits = append(lp.Recruits, card(c))
	}
	for _, c := range v.Supporters {
		c.FaceUp = true
		lp.Supporters = append(lp.Supporters, card(c))
	}
	toMove := map[int]bool{}
	if v.Pending != nil {
		toMove[v.Pending.Seat] = true
	}
	for _, s := range v.Seats {
		ls := lordsSeat{Seat: s.Seat, Name: seatName(names, s.Seat), You: s.Seat == v.Seat, ToMove: toMove[s.Seat],
			HandCount: s.HandCount, Points: s.Points}
		for _, c := range s.Army {
			ls.Army = append(ls.Army, card(c))
		}
		for _, c := range s.Claimed {
			c.FaceUp = true
			ls.Claimed = append(ls.Claimed, card(c))
		}
		lp.Seats = append(lp.Seats, ls)
	}
	switch v.Phase {
	case "claim":
		lp.Info = append(lp.Info, cat.T("lords.round_claim", v.Round))
	case "play":
		lp.Info = append(lp.Info, cat.T("lords.round_turn", v.Round, v.Turn))
	}
	if v.Phase == "play" || v.Phase == "claim" {
		lp.Info = append(lp.Info, cat.T("lords.initiative", seatName(names, v.Initiative)))
	}
	if v.Target > 0 {
		lp.Info = append(lp.Info, cat.T("lords.target", v.Target))
	}
	lp.Piles = cat.T("lords.draw_pile", v.DrawCount) + " " + cat.T("lords.discard_pile", v.DiscardN)
	return lp, nil
}

// seatName is the name of seat, or "seat N".
func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("#%d", seat+1)
}

// lordsGroup gives a Lords of Scotland move its group (a catalog key); its
// label is the engine's, already in the game's language with the players'
// names.
func lordsGroup(m rawMove) (string, string) {
	switch m.Type {
	case "recruit", "muster", "claim", "power", "copy", "target":
		return "move." + m.Type, ""
	}
	return "", ""
}
