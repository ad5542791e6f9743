package api

import (
	"strings"

	"pbem/engine/bagpipes"
	"pbem/engine/i18n"
)

// bagCard is a bagpipe card as the page draws it: the view's card
// (bagpipes.CardView: its printed name, its text in the game's language),
// its phase in the page's language.
type bagCard struct {
	bagpipes.CardView
	// X2Note says, for a card of the rulebook's "x2" symbol, what the
	// symbol means for it here (see x2Note); "" for another card.
	X2Note string
	// Changed marks a card that came here since the seat last looked
	// (see page_catchup.go).
	Changed bool
	// Moves are the moves a tap on the card offers (page_play_cards.go).
	Moves []moveButton
}

// bagPlayer is one player's row on the page.
type bagPlayer struct {
	Name    string
	You     bool
	Gold    int
	Castle  int
	Camp    int
	Cards   int
	Daggers string // in words: see daggerWords
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

// bagData reads a Swords and Bagpipes view into the page's data.
func bagData(cat i18n.Printer, v bagpipes.View, names []string) *bagPage {
	bp := &bagPage{Hand: bagCards(cat, v.Hand, false)}
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
			Camp: pl.Camp, Cards: pl.HandCount, Side: bagWord(cat, "bag.side.", pl.Side), Table: bagCards(cat, pl.Table, true),
			Daggers: daggerWords(cat, pl)}
		switch {
		case pl.Side == "" && pl.Chosen:
			row.Side = "?" // chosen, kept secret until the battle
		case pl.Side == "":
			row.Side = "—" // none chosen yet this round (or the game is over)
		}
		bp.Players = append(bp.Players, row)
	}
	return bp
}

// daggerWords says a player's daggers (pl) as the seat may know them, in
// words (a user trial could not read "0 (0)"): "0" without a dagger card;
// "5 on 2 cards" where the seat may know what its cards hold (its own,
// every player's at the end and in the 2-player game, where they lie
// face up); else only what everyone sees, the cards: "hidden, on 2
// cards".
func daggerWords(cat i18n.Printer, pl bagpipes.PlayerView) string {
	switch {
	case pl.DaggerCards == 0:
		return "0"
	case pl.DaggerTotal != nil:
		return cat.T("bag.daggers.on", *pl.DaggerTotal, pl.DaggerCards)
	}
	return cat.T("bag.daggers.hidden", pl.DaggerCards)
}

// bagCards are the view's cards cs as the page draws them, each phase in
// the page's language, onTable telling the cards played face up from
// those of a hand.
func bagCards(cat i18n.Printer, cs []bagpipes.CardView, onTable bool) []bagCard {
	out := make([]bagCard, len(cs))
	for i, c := range cs {
		c.Phase = bagWord(cat, "bag.phase.", c.Phase)
		out[i] = bagCard{CardView: c, X2Note: x2Note(cat, c, onTable)}
	}
	return out
}

// x2Note says what the rulebook's "x2" symbol of card c means for it
// (the symbol alone was not understood): a card of the symbol in hand
// plays twice; played once, it lies face up and plays once more, not in
// the round it was first played (CardView.Ready: from the next round).
// It is "" for a card without the symbol.
func x2Note(cat i18n.Printer, c bagpipes.CardView, onTable bool) string {
	switch {
	case !c.X2:
		return ""
	case !onTable:
		return cat.T("bag.x2.hand")
	case c.Ready:
		return cat.T("bag.x2.again")
	}
	return cat.T("bag.x2.later")
}

// bagGroup gives a Swords and Bagpipes move's kind its group (a catalog
// key). The label is the engine's, shown as it comes, already in the game's language and naming
// the players (as are the card texts of the view).
func bagGroup(kind string) string {
	switch kind {
	case "replenish", "relocate", "play", "end_turn", "stay_home", "choose", "pass":
		return "bagmove." + kind
	case "pass_badge", "keep_badge":
		return "bagmove.badge"
	}
	return ""
}

// bagWord translates a phase or side name of the view (prefix+name in the
// catalog), or shows it with spaces for underscores.
func bagWord(cat i18n.Printer, prefix, name string) string {
	if name == "" {
		return ""
	}
	return textOr(cat, prefix+name, strings.ReplaceAll(name, "_", " "))
}
