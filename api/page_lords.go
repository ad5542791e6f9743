package api

import (
	"encoding/json"
	"fmt"
	"strings"
)

// lordsName is the registry name of Lords of Scotland.
const lordsName = "lords-of-scotland"

// lordsCardJSON is a card of the Lords of Scotland view JSON (a hand card,
// a follower, a recruit, a supporter).
type lordsCardJSON struct {
	Rank     int    `json:"rank"`
	Clan     string `json:"clan"`
	Strength int    `json:"strength"`
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
		Seat int            `json:"seat"`
		Kind string         `json:"kind"`
		Card *lordsCardJSON `json:"card"`
	} `json:"pending"`
	Target int `json:"target_points"`
}

// lordsCard is a card as the page draws it.
type lordsCard struct {
	Rank     int
	Clan     string // "" for a back or an empty place
	Class    string // CSS class of the clan
	Strength int
	Power    string // the clan's power, in the page's language
	Back     bool   // face-down and unknown to this seat
	Down     bool   // face-down, but this seat knows it
	Empty    bool   // an empty recruit place
	Active   string
	Kept     bool
	Name     string // "Wemyss 5"
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
	cat        catalog
	Info       []string
	Hand       []lordsCard
	Recruits   []lordsCard
	Supporters []lordsCard
	Seats      []lordsSeat
	Piles      string
	// pendingClan is the clan of the card whose power awaits a decision.
	pendingClan string
}

// lordsData reads a Lords of Scotland view (JSON) into the page's data,
// naming the seats with names and the powers in cat's language.
func (p *pages) lordsData(cat catalog, raw []byte, names []string) (*lordsPage, error) {
	var v lordsViewJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("api: lords view: %w", err)
	}
	lp := &lordsPage{cat: cat}
	card := func(c lordsCardJSON) lordsCard {
		switch {
		case c.Empty:
			return lordsCard{Empty: true}
		case c.Hidden || c.Rank == 0:
			return lordsCard{Back: true}
		}
		return lordsCard{Rank: c.Rank, Clan: c.Clan, Class: "clan-" + strings.ToLower(c.Clan), Strength: c.Strength,
			Power: cat.t("lords.power." + c.Clan), Down: !c.FaceUp, Active: c.Active, Kept: c.Kept,
			Name: cat.t("lords.card", c.Clan, c.Strength)}
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
		if v.Pending.Kind == "activate" && v.Pending.Card != nil {
			lp.pendingClan = v.Pending.Card.Clan
		}
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
		lp.Info = append(lp.Info, cat.t("lords.round_claim", v.Round))
	case "play":
		lp.Info = append(lp.Info, cat.t("lords.round_turn", v.Round, v.Turn))
	}
	if v.Phase == "play" || v.Phase == "claim" {
		lp.Info = append(lp.Info, cat.t("lords.initiative", seatName(names, v.Initiative)))
	}
	if v.Target > 0 {
		lp.Info = append(lp.Info, cat.t("lords.target", v.Target))
	}
	lp.Piles = cat.t("lords.piles", v.DrawCount, v.DiscardN)
	return lp, nil
}

// seatName is the name of seat, or "seat N".
func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("#%d", seat+1)
}

// label gives a Lords of Scotland move its group and a label in the page's
// language, naming the cards from the view; "" keeps the engine's label.
func (lp *lordsPage) label(m rawMove) (string, string) {
	cat := lp.cat
	byRank := func(cards []lordsCard, rank int) string {
		for _, c := range cards {
			if c.Rank == rank && c.Name != "" {
				return c.Name
			}
		}
		return ""
	}
	follower := func() (string, string) {
		seat, _ := m.int("seat")
		idx, _ := m.int("index")
		for _, s := range lp.Seats {
			if s.Seat == seat && idx >= 0 && idx < len(s.Army) {
				what := s.Army[idx].Name
				if what == "" {
					what = cat.t("lords.m.hidden_at", idx+1)
				}
				return what, s.Name
			}
		}
		return "", ""
	}
	switch m.Type {
	case "recruit":
		slot, _ := m.int("slot")
		if slot >= 0 && slot < len(lp.Recruits) && lp.Recruits[slot].Name != "" {
			return "move.recruit", cat.t("lords.m.recruit_up", lp.Recruits[slot].Name, slot+1)
		}
		return "move.recruit", cat.t("lords.m.recruit_down", slot+1)
	case "muster":
		rank, _ := m.int("card")
		name := byRank(lp.Hand, rank)
		if name == "" {
			return "move.muster", ""
		}
		if m.bool("face_up") {
			return "move.muster", cat.t("lords.m.muster_up", name)
		}
		return "move.muster", cat.t("lords.m.muster_down", name)
	case "claim":
		rank, _ := m.int("card")
		if name := byRank(lp.Supporters, rank); name != "" {
			return "move.claim", cat.t("lords.m.claim", name)
		}
		return "move.claim", ""
	case "power":
		return "move.power", lp.powerLabel(m)
	case "copy":
		what, who := follower()
		if what == "" {
			return "move.copy", ""
		}
		clan := strings.Fields(what)[0]
		return "move.copy", cat.t("lords.m.copy", what, who, strings.ToLower(cat.t("lords.power."+clan)))
	case "target":
		if rank, ok := m.int("card"); ok && rank != 0 {
			if name := byRank(lp.Supporters, rank); name != "" {
				return "move.target", cat.t("lords.m.cockburn", name)
			}
			return "move.target", ""
		}
		what, who := follower()
		if what == "" {
			return "move.target", ""
		}
		switch {
		case strings.HasPrefix(m.Label, "Fergusson"):
			return "move.target", cat.t("lords.m.fergusson", what, who)
		case strings.HasPrefix(m.Label, "Wemyss"):
			return "move.target", cat.t("lords.m.wemyss", what, who)
		}
		return "move.target", cat.t("lords.m.target", what, who)
	}
	return "", ""
}

// powerLabel labels a use or decline of the power of the card awaiting
// it (the view's pending card).
func (lp *lordsPage) powerLabel(m rawMove) string {
	clan := lp.pendingClan
	if clan == "" {
		return ""
	}
	if m.bool("use") {
		return lp.cat.t("lords.m.use", clan, strings.ToLower(lp.cat.t("lords.power."+clan)))
	}
	return lp.cat.t("lords.m.decline", clan)
}
