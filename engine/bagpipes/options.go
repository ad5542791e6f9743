package bagpipes

import (
	"bytes"
	"encoding/json"
	"strings"

	"pbem/engine"
)

// Options are a game's variants, given as a JSON object at setup. Unknown
// keys are rejected with bad_options.
type Options struct {
	// StayHome plays with the Stay Home! token. Always on with 6 players,
	// optional with 5, refused otherwise.
	StayHome bool `json:"stay_home,omitempty"`
	// ThreePlayer plays the 3-player variant (3 players only).
	ThreePlayer bool `json:"three_player,omitempty"`
	// Together is "Together for Scotland": three bagpipe cards each at setup.
	Together bool `json:"together,omitempty"`
	// LongGame plays nine rounds; Scotland falls after five defeats.
	LongGame bool `json:"long_game,omitempty"`
	// PreciseDaggers stacks the dagger deck as the "precise calculations"
	// variant says.
	PreciseDaggers bool `json:"precise_daggers,omitempty"`
	// Cards replaces the default card set (same format as cards.json).
	Cards json.RawMessage `json:"cards,omitempty"`
}

// usableArmy tells whether an English army deck card, King Edward
// included, is dealt in a game of n players with these options: the
// 2-player game leaves out the cards marked no_two_player, the 3-player
// variant those that mention the badge of honour.
func usableArmy(c *ArmyCard, n int, o Options) bool {
	return !(n == 2 && c.NoTwoPlayer) && !(o.ThreePlayer && MentionsBadge(c.Effects))
}

// armyFilters names what leaves English army cards out of this game, for
// an error.
func armyFilters(n int, o Options) string {
	var f []string
	if n == 2 {
		f = append(f, "no_two_player")
	}
	if o.ThreePlayer {
		f = append(f, "three_player")
	}
	if o.LongGame {
		f = append(f, "long_game")
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ", ")
}

// parseOptions reads and checks the options for n players and returns
// them with the card set to use; its errors are in lang.
func parseOptions(raw json.RawMessage, n int, lang string) (Options, *CardSet, error) {
	o, cs, e := checkOptions(raw, n)
	if e != nil {
		return o, nil, e.ruleError(lang)
	}
	return o, cs, nil
}

func checkOptions(raw json.RawMessage, n int) (Options, *CardSet, *setupError) {
	var o Options
	if n < 2 || n > 6 {
		return o, nil, optionError("players", "players", n)
	}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return o, nil, optionError("options", "options", err.Error())
		}
		if dec.More() {
			return o, nil, optionError("options", "options", "trailing data")
		}
	}
	var explicitStay *bool
	if len(raw) > 0 {
		var probe struct {
			StayHome *bool `json:"stay_home"`
		}
		_ = json.Unmarshal(raw, &probe)
		explicitStay = probe.StayHome
	}
	switch {
	case n == 6 && explicitStay != nil && !*explicitStay:
		return o, nil, optionError("stay_home", "stay_6")
	case n == 6:
		o.StayHome = true
	case o.StayHome && n != 5:
		return o, nil, optionError("stay_home", "stay_5", n)
	}
	if o.ThreePlayer && n != 3 {
		return o, nil, optionError("three_player", "three", n)
	}
	if o.LongGame && n == 2 {
		return o, nil, optionError("long_game", "long_2")
	}
	if o.PreciseDaggers && n == 2 {
		return o, nil, optionError("precise_daggers", "precise_2")
	}
	cs := DefaultCards()
	if len(o.Cards) > 0 {
		var e *setupError
		if cs, e = decodeCardSet(o.Cards); e == nil {
			e = cs.validate()
		}
		if e != nil {
			return o, nil, e
		}
		cs.index()
	}
	kings, army := 0, 0
	for i := range cs.KingEdward {
		if usableArmy(&cs.KingEdward[i], n, o) {
			kings++
		}
	}
	for i := range cs.EnglishArmy {
		if usableArmy(&cs.EnglishArmy[i], n, o) {
			army++
		}
	}
	if kings == 0 {
		return o, nil, cardError("king_edward", -1, "", "", "king_count", armyFilters(n, o))
	}
	if need := o.rounds() - 1; army < need {
		e := cardError("english_army", -1, "", "", "army_count", army, armyFilters(n, o), need)
		if len(o.Cards) == 0 {
			// The default set: the options ask too much of it; the
			// long game is the one that asks for more cards.
			e.Option = "long_game"
		}
		return o, nil, e
	}
	if n == 2 {
		count := map[int]int{}
		for _, d := range cs.Daggers {
			count[d.Daggers]++
		}
		if count[1] < 4 || count[2] < 6 || count[3] < 4 {
			return o, nil, cardError("daggers", -1, "", "", "daggers_2")
		}
	}
	if o.PreciseDaggers {
		count := map[int]int{}
		for _, d := range cs.Daggers {
			count[d.Daggers]++
		}
		if count[1] < 2 || count[2] < 4 || count[3] < 4 {
			return o, nil, cardError("daggers", -1, "", "", "daggers_p")
		}
	}
	return o, cs, nil
}

func (o Options) rounds() int {
	if o.LongGame {
		return 9
	}
	return 7
}

func (o Options) defeatLimit() int {
	if o.LongGame {
		return 5
	}
	return 4
}

// Settings describes the game for a lobby: 2 to 6 players and the
// variants each player count allows, in the order a lobby should offer
// them, named in lang as the rulebook calls them ("en", "fr", "it";
// English otherwise). The 3-player variant is offered by name to three
// players, not imposed; Stay Home! is optional with 5 and imposed with 6.
// Options that some card sets cannot play together (three_player with
// long_game on the default set) are both offered; New refuses the pair
// naming long_game.
func (Game) Settings(lang string) engine.Settings {
	spec := func(key string, typ engine.OptionType, players ...int) engine.OptionSpec {
		o := engine.OptionSpec{Key: key, Type: typ, Players: players,
			Label: texts.T(lang, "option."+key), Help: texts.T(lang, "option."+key+".help")}
		if typ == engine.OptionBool {
			o.Default = false
		}
		return o
	}
	stay := spec("stay_home", engine.OptionBool, 5, 6)
	stay.Forced = []int{6}
	return engine.Settings{MinPlayers: 2, MaxPlayers: 6, Options: []engine.OptionSpec{
		spec("three_player", engine.OptionBool, 3),
		stay,
		spec("together", engine.OptionBool),
		spec("long_game", engine.OptionBool, 3, 4, 5, 6),
		spec("precise_daggers", engine.OptionBool, 3, 4, 5, 6),
		spec("cards", engine.OptionDocument),
	}}
}
