package api

import (
	"encoding/json"
	"fmt"
	"strings"

	"pbem/engine/i18n"
)

// bagpipesName is the registry name of Swords and Bagpipes.
const bagpipesName = "swords-and-bagpipes"

// bagCard is a bagpipe card of the Swords and Bagpipes view JSON: its
// printed name and its text in the game's language.
type bagCard struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Phase string `json:"phase"`
	X2    bool   `json:"x2"`
	Text  string `json:"text"`
	Fresh bool   `json:"fresh"`
	Ready bool   `json:"ready"`
	// Changed marks a card that came here since the seat last looked
	// (see page_catchup.go).
	Changed bool `json:"-"`
	// Moves are the moves a tap on the card offers (page_play_cards.go).
	Moves []moveButton `json:"-"`
}

// bagViewJSON is the part of the Swords and Bagpipes view the page shows.
type bagViewJSON struct {
	Seat        int    `json:"seat"`
	Round       int    `json:"round"`
	Rounds      int    `json:"rounds"`
	Phase       string `json:"phase"`
	Badge       int    `json:"badge_of_honour"`
	StayingHome int    `json:"staying_home"`
	Defeats     int    `json:"defeats"`
	DefeatLimit int    `json:"defeat_limit"`
	ArmyLeft    int    `json:"army_cards_left"`
	Army        *struct {
		Name        string `json:"name"`
		Shield      int    `json:"shield"`
		ScotlandWon int    `json:"scotland_won"`
		EnglandWon  int    `json:"england_won"`
		Crown       int    `json:"crown"`
		Text        string `json:"text"`
	} `json:"army"`
	Battle *struct {
		Scotland int    `json:"scotland"`
		England  int    `json:"england"`
		Winner   string `json:"winner"`
	} `json:"battle"`
	Decks struct {
		Bagpipe int `json:"bagpipe"`
		Dagger  int `json:"dagger"`
	} `json:"decks"`
	Players []struct {
		Seat        int       `json:"seat"`
		Gold        int       `json:"gold"`
		Castle      int       `json:"castle"`
		Camp        int       `json:"camp"`
		HandCount   int       `json:"hand_count"`
		Table       []bagCard `json:"table"`
		DaggerCards int       `json:"dagger_cards"`
		DaggerTotal *int      `json:"dagger_total"`
		Side        string    `json:"side"`
	} `json:"players"`
	Hand []bagCard `json:"hand"`
}

// bagPlayer is one player's row on the page.
type bagPlayer struct {
	Name    string
	You     bool
	Gold    int
	Castle  int
	Camp    int
	Cards   int
	Daggers string // the dagger total if this seat may know it, else the card count
	Side    string
	Table   []bagCard
	// Changed marks a player whose gold, units, cards or side changed
	// since the seat last looked (see page_catchup.go).
	Changed bool
}

// bagPage is the Swords and Bagpipes part of a play page.
type bagPage struct {
	Info    []string
	Army    string
	ArmyTxt string
	Battle  string
	Hand    []bagCard
	Players []bagPlayer
	// Other are the seat's moves about no card of its hand (replenish,
	// relocate, end the turn, stay home, choose a side, the badge), offered
	// by its camp's tile.
	Other []moveButton
}

// bagData reads a Swords and Bagpipes view (JSON) into the page's data.
func (p *pages) bagData(cat i18n.Printer, raw []byte, names []string) (*bagPage, error) {
	var v bagViewJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("api: bagpipes view: %w", err)
	}
	bp := &bagPage{Hand: v.Hand}
	for i := range bp.Hand {
		bp.Hand[i].Phase = bagWord(cat, "bag.phase.", bp.Hand[i].Phase)
	}
	bp.Info = append(bp.Info, cat.T("bag.round", v.Round, v.Rounds, bagWord(cat, "bag.phase.", v.Phase)))
	if v.Badge >= 0 && v.Badge < len(names) {
		bp.Info = append(bp.Info, cat.T("bag.badge", seatName(names, v.Badge)))
	}
	if v.StayingHome >= 0 && v.StayingHome < len(names) {
		bp.Info = append(bp.Info, cat.T("bag.stay", seatName(names, v.StayingHome)))
	}
	bp.Info = append(bp.Info, cat.T("bag.defeats", v.Defeats, v.DefeatLimit), cat.T("bag.decks", v.Decks.Bagpipe, v.Decks.Dagger, v.ArmyLeft))
	if a := v.Army; a != nil {
		bp.Army = a.Name + " — " + cat.T("bag.shield", a.Shield, a.ScotlandWon, a.EnglandWon, a.Crown)
		bp.ArmyTxt = a.Text
	}
	if b := v.Battle; b != nil {
		bp.Battle = cat.T("bag.battle", b.Scotland, b.England, bagWord(cat, "bag.side.", b.Winner))
	}
	for _, pl := range v.Players {
		row := bagPlayer{Name: seatName(names, pl.Seat), You: pl.Seat == v.Seat, Gold: pl.Gold, Castle: pl.Castle,
			Camp: pl.Camp, Cards: pl.HandCount, Side: bagWord(cat, "bag.side.", pl.Side), Table: pl.Table,
			Daggers: fmt.Sprint(pl.DaggerCards)}
		for i := range row.Table {
			row.Table[i].Phase = bagWord(cat, "bag.phase.", row.Table[i].Phase)
		}
		if pl.DaggerTotal != nil {
			row.Daggers = fmt.Sprintf("%d (%d)", pl.DaggerCards, *pl.DaggerTotal)
		}
		if pl.Side == "" {
			row.Side = "?"
		}
		bp.Players = append(bp.Players, row)
	}
	return bp, nil
}

// bagLabel groups a Swords and Bagpipes move. It gives no label: the
// engine's is shown as it comes, already in the game's language and naming
// the players (as are the card texts of the view).
func bagLabel(m rawMove) (string, string) {
	switch m.Type {
	case "replenish", "relocate", "play", "end_turn", "stay_home", "choose", "pass":
		return "bagmove." + m.Type, ""
	case "pass_badge", "keep_badge":
		return "bagmove.badge", ""
	}
	return "", ""
}

// bagWord translates a phase or side name of the view (prefix+name in the
// catalog), or shows it with spaces for underscores.
func bagWord(cat i18n.Printer, prefix, name string) string {
	if name == "" {
		return ""
	}
	return textOr(cat, prefix+name, strings.ReplaceAll(name, "_", " "))
}
