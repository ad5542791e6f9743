package bagpipes

import (
	"encoding/json"

	"pbem/engine"
)

// Event types.
const (
	EvtRoundStarted  = "round_started"
	EvtReplenished   = "replenished"
	EvtRelocated     = "relocated"
	EvtCardPlayed    = "card_played"
	EvtTurnEnded     = "turn_ended"
	EvtBadgePassed   = "badge_passed"
	EvtBadgeKept     = "badge_kept"
	EvtStayHomeGiven = "stay_home_given"
	EvtStayedHome    = "stayed_home"
	EvtChoiceMade    = "choice_made"
	EvtPassed        = "passed"
	EvtBattle        = "battle"
	EvtAwards        = "awards"
	EvtRoundEnded    = "round_ended"
	EvtGameEnded     = "game_ended"
)

// Draw is one card that moved to or from a player's secret holdings: a
// bagpipe or dagger card drawn, or a dagger card discarded. Card and
// Daggers are blank in a version redacted for another seat.
type Draw struct {
	Seat    int    `json:"seat"`
	Deck    string `json:"deck"` // "bagpipe", "dagger" or "dagger_discard"
	Card    string `json:"card,omitempty"`
	Daggers int    `json:"daggers,omitempty"`
	Virtual bool   `json:"virtual,omitempty"`
}

// RoundStarted: the invasion phase revealed the round's army card.
type RoundStarted struct {
	Round int    `json:"round"`
	Army  string `json:"army"`
	Name  string `json:"name"`
}

// Replenished: a replenishment action (Stay: one of the Stay Home three).
type Replenished struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
	Stay   bool   `json:"stay,omitempty"`
}

// Relocated: units moved from the castle to the camp.
type Relocated struct {
	Seat  int `json:"seat"`
	Units int `json:"units"`
}

// CardPlayed: a bagpipe card was played (it is public once played).
type CardPlayed struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Name   string `json:"name"`
	Units  int    `json:"units"`
	Target int    `json:"target"`
	Draws  []Draw `json:"draws,omitempty"`
}

// TurnEnded: a player ended their turn of the actions phase.
type TurnEnded struct {
	Seat int `json:"seat"`
}

// BadgePassed: the badge of honour changed hands. Moved counts the units
// the receiver sent to Scotland's camp (2 players).
type BadgePassed struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Moved int `json:"moved,omitempty"`
	// Round is the round of a 2-player pass (absent in older events and
	// with 3+ players, where the badge passes every round).
	Round int `json:"round,omitempty"`
}

// BadgeKept: in the 2-player game, the holder kept the badge.
type BadgeKept struct {
	Seat int `json:"seat"`
}

// StayHomeGiven: the Stay Home! token changed hands.
type StayHomeGiven struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// StayedHome: after three replenishments, the player discarded their camp
// and stays home this round.
type StayedHome struct {
	Seat      int `json:"seat"`
	Discarded int `json:"discarded"`
}

// ChoiceMade: a player placed a choice token (and, with 2 players, a
// dagger card) face down. Side and the dagger are secret until the battle.
type ChoiceMade struct {
	Seat    int    `json:"seat"`
	Side    string `json:"side,omitempty"`
	Dagger  string `json:"dagger,omitempty"`
	Daggers int    `json:"daggers,omitempty"`
}

// Passed: a player plays no more bagpipe cards in this phase.
type Passed struct {
	Seat  int    `json:"seat"`
	Phase string `json:"phase"`
}

// Battle: the choices are revealed and the armies compared.
type Battle struct {
	Sides     []string `json:"sides"`
	Offered   []int    `json:"offered,omitempty"` // 2 players: the dagger count each offered
	Scotland  int      `json:"scotland"`
	England   int      `json:"england"`
	Winner    string   `json:"winner"`
	Defeats   int      `json:"defeats"`
	Deserters []int    `json:"deserters"`
}

// Awards: the rewards of the round, per seat, and the seats that draw a
// dagger card, in the order they draw (absent from events written before
// deserters drew theirs).
type Awards struct {
	Gold    []int  `json:"gold"`
	Units   []int  `json:"units"`
	Daggers []int  `json:"daggers"`
	Draws   []Draw `json:"draws,omitempty"`
}

// RoundEnded: the end phase emptied every camp.
type RoundEnded struct {
	Round int `json:"round"`
}

// GameEnded: the game is over. Reason is "rounds" (all army cards played),
// "scotland_defeated" or "five_daggers" (2 players).
type GameEnded struct {
	Reason  string `json:"reason"`
	Traitor int    `json:"traitor"`
}

// EventType implementations.
func (RoundStarted) EventType() string  { return EvtRoundStarted }
func (Replenished) EventType() string   { return EvtReplenished }
func (Relocated) EventType() string     { return EvtRelocated }
func (CardPlayed) EventType() string    { return EvtCardPlayed }
func (TurnEnded) EventType() string     { return EvtTurnEnded }
func (BadgePassed) EventType() string   { return EvtBadgePassed }
func (BadgeKept) EventType() string     { return EvtBadgeKept }
func (StayHomeGiven) EventType() string { return EvtStayHomeGiven }
func (StayedHome) EventType() string    { return EvtStayedHome }
func (ChoiceMade) EventType() string    { return EvtChoiceMade }
func (Passed) EventType() string        { return EvtPassed }
func (Battle) EventType() string        { return EvtBattle }
func (Awards) EventType() string        { return EvtAwards }
func (RoundEnded) EventType() string    { return EvtRoundEnded }
func (GameEnded) EventType() string     { return EvtGameEnded }

func decodeEvent(typ string, data []byte) (engine.Event, error) {
	var e engine.Event
	var err error
	switch typ {
	case EvtRoundStarted:
		e, err = unmarshal[RoundStarted](data)
	case EvtReplenished:
		e, err = unmarshal[Replenished](data)
	case EvtRelocated:
		e, err = unmarshal[Relocated](data)
	case EvtCardPlayed:
		e, err = unmarshal[CardPlayed](data)
	case EvtTurnEnded:
		e, err = unmarshal[TurnEnded](data)
	case EvtBadgePassed:
		e, err = unmarshal[BadgePassed](data)
	case EvtBadgeKept:
		e, err = unmarshal[BadgeKept](data)
	case EvtStayHomeGiven:
		e, err = unmarshal[StayHomeGiven](data)
	case EvtStayedHome:
		e, err = unmarshal[StayedHome](data)
	case EvtChoiceMade:
		e, err = unmarshal[ChoiceMade](data)
	case EvtPassed:
		e, err = unmarshal[Passed](data)
	case EvtBattle:
		e, err = unmarshal[Battle](data)
	case EvtAwards:
		e, err = unmarshal[Awards](data)
	case EvtRoundEnded:
		e, err = unmarshal[RoundEnded](data)
	case EvtGameEnded:
		e, err = unmarshal[GameEnded](data)
	default:
		return nil, engine.Errorf(engine.CodeBadMove, "unknown event type %q", typ)
	}
	if err != nil {
		return nil, engine.Errorf(engine.CodeBadMove, "event %s: %v", typ, err)
	}
	return e, nil
}

func unmarshal[T engine.Event](data []byte) (engine.Event, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}
