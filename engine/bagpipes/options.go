package bagpipes

import (
	"bytes"
	"encoding/json"

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

// parseOptions reads and checks the options for n players and returns
// them with the card set to use.
func parseOptions(raw json.RawMessage, n int) (Options, *CardSet, error) {
	var o Options
	if n < 2 || n > 6 {
		return o, nil, engine.Errorf(engine.CodeBadOptions, "swords-and-bagpipes is for 2 to 6 players, not %d", n)
	}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return o, nil, engine.Errorf(engine.CodeBadOptions, "options: %v", err)
		}
		if dec.More() {
			return o, nil, engine.Errorf(engine.CodeBadOptions, "options: trailing data")
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
		return o, nil, engine.Errorf(engine.CodeBadOptions, "stay_home: the 6-player game always plays with the Stay Home! token")
	case n == 6:
		o.StayHome = true
	case o.StayHome && n != 5:
		return o, nil, engine.Errorf(engine.CodeBadOptions, "stay_home: the Stay Home! token is for 5 or 6 players")
	}
	if o.ThreePlayer && n != 3 {
		return o, nil, engine.Errorf(engine.CodeBadOptions, "three_player: the 3-player variant needs 3 players")
	}
	if o.LongGame && n == 2 {
		return o, nil, engine.Errorf(engine.CodeBadOptions, "long_game: the 2-player game has only six English Army cards")
	}
	if o.PreciseDaggers && n == 2 {
		return o, nil, engine.Errorf(engine.CodeBadOptions, "precise_daggers: the 2-player game deals the dagger cards by value")
	}
	cs := DefaultCards()
	if len(o.Cards) > 0 {
		var err error
		if cs, err = ParseCards(o.Cards); err != nil {
			return o, nil, err
		}
	}
	army := 0
	for _, c := range cs.EnglishArmy {
		if n == 2 && c.NoTwoPlayer || o.ThreePlayer && MentionsBadge(c.Effects) {
			continue
		}
		army++
	}
	if need := o.rounds() - 1; army < need {
		return o, nil, engine.Errorf(engine.CodeBadOptions, "cards: english_army: %d usable cards for these options, %d needed", army, need)
	}
	if n == 2 {
		count := map[int]int{}
		for _, d := range cs.Daggers {
			count[d.Daggers]++
		}
		if count[1] < 4 || count[2] < 6 || count[3] < 4 {
			return o, nil, engine.Errorf(engine.CodeBadOptions, "cards: daggers: the 2-player game needs at least 4 one-dagger, 6 two-dagger and 4 three-dagger cards")
		}
	}
	if o.PreciseDaggers {
		count := map[int]int{}
		for _, d := range cs.Daggers {
			count[d.Daggers]++
		}
		if count[1] < 2 || count[2] < 4 || count[3] < 4 {
			return o, nil, engine.Errorf(engine.CodeBadOptions, "cards: daggers: precise_daggers needs at least 2 one-dagger, 4 two-dagger and 4 three-dagger cards")
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
