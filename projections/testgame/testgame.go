// Package testgame is a tiny game for the service's tests, so that they do
// not depend on a real game's rules: 2–5 players, each with a hidden hand of
// cards named "c1".."c40"; on your turn you play a card face-up (scoring its
// value) or draw one (hidden from the others). A round ends when every seat
// has acted; the game ends when a total reaches the target or after Rounds
// rounds. It implements engine.Game.
package testgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
)

// Name is the game's registry name.
const Name = "count"

// Game is the test game.
type Game struct{}

var _ engine.Game = Game{}

// Options are the game's options.
type Options struct {
	Target int `json:"target,omitempty"`
	Rounds int `json:"rounds,omitempty"`
	// Forced makes a draw forced (engine.State.Forced) for a seat with an
	// empty hand while the deck has cards: the service's tests of forced
	// steps. Off, the game has no forced step.
	Forced bool `json:"forced,omitempty"`
}

// Name implements engine.Game.
func (Game) Name() string { return Name }

// RulesVersion implements engine.Game.
func (Game) RulesVersion() string { return "1" }

// New implements engine.Game.
func (Game) New(s engine.Setup) (engine.State, error) {
	if s.Players < 2 || s.Players > 5 {
		return nil, engine.Errorf(engine.CodeBadOptions, "count is for 2 to 5 players, not %d", s.Players)
	}
	o := Options{Target: 40, Rounds: 6}
	if len(s.Options) > 0 {
		if err := strict(s.Options, &o); err != nil {
			return nil, engine.Errorf(engine.CodeBadOptions, "options: %v", err)
		}
	}
	if o.Target < 1 || o.Rounds < 1 || o.Rounds > 50 {
		return nil, engine.Errorf(engine.CodeBadOptions, "target and rounds must be positive")
	}
	deck := make([]string, 40)
	for i := range deck {
		deck[i] = "c" + strconv.Itoa(i+1)
	}
	rng := rand.New(rand.NewChaCha8(s.Seed))
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	st := &State{Target: o.Target, Rounds: o.Rounds, ForcedDraw: o.Forced, Round: 1, Hands: make([][]string, s.Players),
		Totals: make([]int, s.Players)}
	for p := range s.Players {
		st.Hands[p] = slices.Clone(deck[:3])
		deck = deck[3:]
	}
	st.Deck = deck
	return st, nil
}

// DecodeState implements engine.Game.
func (Game) DecodeState(data []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Move is a move: {"kind":"play","card":"c7"} or {"kind":"draw"}.
type Move struct {
	Kind string `json:"kind"`
	Card string `json:"card,omitempty"`
	Text string `json:"label"`
}

// Label implements engine.Move.
func (m Move) Label() string { return m.Text }

// About implements engine.Move: its kind; the test game's page shows no
// table, so a move is about no card of it.
func (m Move) About() engine.About { return engine.About{Kind: m.Kind} }

// DecodeMove implements engine.Game.
func (Game) DecodeMove(data []byte) (engine.Move, error) {
	var m Move
	if err := strict(data, &m); err != nil {
		return nil, engine.Errorf(engine.CodeBadMove, "%v", err)
	}
	switch m.Kind {
	case "play":
		if m.Card == "" {
			return nil, engine.Errorf(engine.CodeBadMove, "play needs a card")
		}
	case "draw":
		if m.Card != "" {
			return nil, engine.Errorf(engine.CodeBadMove, "draw takes no card")
		}
	default:
		return nil, engine.Errorf(engine.CodeBadMove, "kind must be play or draw")
	}
	return m, nil
}

// Events of the game.
type (
	// Played: a card played face-up.
	Played struct {
		Seat int    `json:"seat"`
		Card string `json:"card"`
	}
	// Drew: a card drawn; Card is "" in the others' copy.
	Drew struct {
		Seat int    `json:"seat"`
		Card string `json:"card,omitempty"`
	}
	// RoundEnded: every seat has acted.
	RoundEnded struct {
		Round int `json:"round"`
	}
	// GameEnded: the game is over.
	GameEnded struct{}
)

// EventType implements engine.Event.
func (Played) EventType() string { return "played" }

// EventType implements engine.Event.
func (Drew) EventType() string { return "drew" }

// EventType implements engine.Event.
func (RoundEnded) EventType() string { return "round_ended" }

// EventType implements engine.Event.
func (GameEnded) EventType() string { return "game_ended" }

// DecodeEvent implements engine.Game.
func (Game) DecodeEvent(typ string, data []byte) (engine.Event, error) {
	switch typ {
	case "played":
		var e Played
		return e, json.Unmarshal(data, &e)
	case "drew":
		var e Drew
		err := json.Unmarshal(data, &e)
		return e, err
	case "round_ended":
		var e RoundEnded
		return e, json.Unmarshal(data, &e)
	case "game_ended":
		return GameEnded{}, nil
	}
	return nil, fmt.Errorf("count: unknown event %q", typ)
}

// Redact implements engine.Game.
func (Game) Redact(e engine.Event, seat int) engine.Event {
	if d, ok := e.(Drew); ok && d.Seat != seat {
		d.Card = ""
		return d
	}
	return e
}

// Describe implements engine.Game.
func (Game) Describe(e engine.Event, names []string, lang string) string {
	name := func(s int) string {
		if s >= 0 && s < len(names) {
			return names[s]
		}
		return "?"
	}
	switch e := e.(type) {
	case Played:
		return fmt.Sprintf("%s plays %s.", name(e.Seat), e.Card)
	case Drew:
		if e.Card == "" {
			return fmt.Sprintf("%s draws a card.", name(e.Seat))
		}
		return fmt.Sprintf("%s draws %s.", name(e.Seat), e.Card)
	case RoundEnded:
		if lang == "fr" {
			return fmt.Sprintf("Fin de la manche %d.", e.Round)
		}
		return fmt.Sprintf("Round %d ends.", e.Round)
	case GameEnded:
		return "The game ends."
	}
	return e.EventType()
}

// Reversible implements engine.Game: no move of this game can be taken
// back, since playing turns a card face-up and drawing draws one.
func (Game) Reversible([]engine.Event) bool { return false }

// RoundEnd reports whether e is a RoundEnded.
func (Game) RoundEnd(e engine.Event) bool {
	_, ok := e.(RoundEnded)
	return ok
}

func strict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("trailing data")
	}
	return nil
}

// ChooseBot implements engine.Game with one way to play at every level:
// the first card of the hand, else a draw. It reads only the seat's view.
func (Game) ChooseBot(level engine.BotLevel, view engine.SeatView, _ engine.SeatHistory, _ engine.BotKey, _ int) (engine.Move, error) {
	if !level.Valid() {
		return nil, engine.Errorf(engine.CodeBadOptions, "unknown bot level %d", int(level))
	}
	v, ok := view.(View)
	if !ok {
		return nil, engine.Errorf(engine.CodeBadOptions, "testgame bot: a view of type %T is not this game's view", view)
	}
	seat, _ := v["seat"].(int)
	if over, _ := v["over"].(bool); over || v["turn"] != seat {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat %d has no decision to make", seat)
	}
	if hand, _ := v["hand"].([]string); len(hand) > 0 {
		return Move{Kind: "play", Card: hand[0], Text: "Play " + hand[0]}, nil
	}
	return Move{Kind: "draw", Text: "Draw a card"}, nil
}

// RoundSummary implements engine.Game: the cards each seat played in the
// round that round's last RoundEnded closes (drawn cards are private).
func (g Game) RoundSummary(round []engine.Event, names []string, lang string) *engine.RoundSummary {
	round = engine.LastRound(round, g.RoundEnd)
	if round == nil {
		return nil
	}
	end := len(round) - 1
	played := make([][]string, len(names))
	for _, e := range round[:end] {
		if p, ok := e.(Played); ok && p.Seat >= 0 && p.Seat < len(played) {
			played[p.Seat] = append(played[p.Seat], p.Card)
		}
	}
	col := "Played"
	if lang == "fr" {
		col = "Cartes jouées"
	}
	s := &engine.RoundSummary{Round: round[end].(RoundEnded).Round, Columns: []string{col}}
	for seat, cards := range played {
		s.Rows = append(s.Rows, engine.RoundRow{Seat: seat, Cells: []string{strings.Join(cards, ", ")}})
	}
	return s
}
