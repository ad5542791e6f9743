package lords

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"pbem/engine"
	"pbem/engine/i18n"
)

// Name is the game's stable identifier.
const Name = "lords-of-scotland"

// RulesVersion names this implementation of the rules.
const RulesVersion = "lords-1"

// Game is Lords of Scotland. Build it with New; it holds the deck, read
// from the embedded deck.csv, and is safe for concurrent use.
type Game struct {
	d *deck
}

var _ engine.Game = (*Game)(nil)
var _ engine.State = (*State)(nil)

// New returns the game with the embedded deck.
func New() (*Game, error) {
	d, err := parseDeck(deckCSV)
	if err != nil {
		return nil, err
	}
	return &Game{d: d}, nil
}

// Name is "lords-of-scotland".
func (g *Game) Name() string { return Name }

// RulesVersion names the rules implementation.
func (g *Game) RulesVersion() string { return RulesVersion }

// Options are the game's options.
type Options struct {
	// Bruce puts the two Clan Bruce cards in the deck (ruling 17).
	Bruce bool `json:"bruce"`
}

// ParseOptions reads the options JSON strictly (unknown keys are an error).
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, engine.Errorf(engine.CodeBadOptions, "options: %v", err)
	}
	if dec.More() {
		return o, engine.Errorf(engine.CodeBadOptions, "options: trailing data")
	}
	return o, nil
}

// New deals the first round: five cards to each player, five face-down
// recruits, one supporter per player; seat 0 holds the initiative and
// turns the first recruit. The players' names and the language of the
// setup are kept for the labels. Errors: bad_options.
func (g *Game) New(su engine.Setup) (engine.State, error) {
	if su.Players < 2 || su.Players > 5 {
		return nil, engine.Errorf(engine.CodeBadOptions, "Lords of Scotland is for 2 to 5 players, not %d", su.Players)
	}
	o, err := ParseOptions(su.Options)
	if err != nil {
		return nil, err
	}
	return g.deal(su, o), nil
}

func (g *Game) deal(su engine.Setup, o Options) *State {
	n := su.Players
	s := &State{d: g.d, N: n, WithBruce: o.Bruce, rng: *rand.NewChaCha8(su.Seed)}
	if len(su.Names) > 0 {
		s.Names = append([]string(nil), su.Names[:min(len(su.Names), n)]...)
	}
	if l := i18n.Norm(su.Language); l != "en" {
		s.Lang = l
	}
	s.lab = newLabeling(g.d, s.Names, s.Lang)
	for _, r := range g.d.all {
		if o.Bruce || g.d.clan(r) != Bruce {
			s.Draw = append(s.Draw, r)
		}
	}
	shuffle(&s.rng, s.Draw)
	s.Discard, s.Supporters = []int{}, []int{}
	s.Hands, s.Armies, s.Claimed = make([][]int, n), make([][]Follower, n), make([][]int, n)
	for i := range n {
		s.Hands[i], s.Armies[i], s.Claimed[i] = []int{}, []Follower{}, []int{}
	}
	for range 5 {
		for i := range n {
			c, _ := s.draw()
			s.Hands[i] = append(s.Hands[i], c)
		}
	}
	s.dealRound()
	s.Round, s.Turn, s.Phase, s.FlipDue = 1, 1, PhasePlay, true
	s.advance(nil) // the first recruit is turned; part of the setup, not an event
	return s
}

// DecodeState reads a state written with json.Marshal.
func (g *Game) DecodeState(data []byte) (engine.State, error) {
	return decodeState(g.d, data)
}

// DecodeMove parses a posted move; errors are bad_move.
func (g *Game) DecodeMove(data []byte) (engine.Move, error) {
	m, err := decodeMove(data)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// DecodeEvent reads an event stored as (typ, json.Marshal(event)).
func (g *Game) DecodeEvent(typ string, data []byte) (engine.Event, error) {
	var e engine.Event
	var err error
	switch typ {
	case EvTurnStarted:
		e, err = decodeAs[TurnStarted](data)
	case EvRecruited:
		e, err = decodeAs[Recruited](data)
	case EvMustered:
		e, err = decodeAs[Mustered](data)
	case EvPassed:
		e, err = decodeAs[Passed](data)
	case EvPowerDeclined:
		e, err = decodeAs[PowerDeclined](data)
	case EvPowerUsed:
		e, err = decodeAs[PowerUsed](data)
	case EvCopied:
		e, err = decodeAs[Copied](data)
	case EvSwapped:
		e, err = decodeAs[Swapped](data)
	case EvDiscarded:
		e, err = decodeAs[Discarded](data)
	case EvSupporterSwapped:
		e, err = decodeAs[SupporterSwapped](data)
	case EvRoundScored:
		e, err = decodeAs[RoundScored](data)
	case EvClaimed:
		e, err = decodeAs[Claimed](data)
	case EvRoundEnded:
		e, err = decodeAs[RoundEnded](data)
	case EvRoundStarted:
		e, err = decodeAs[RoundStarted](data)
	case EvGameEnded:
		e, err = decodeAs[GameEnded](data)
	default:
		return nil, fmt.Errorf("lords: unknown event type %q", typ)
	}
	if err != nil {
		return nil, fmt.Errorf("lords: decode %s: %w", typ, err)
	}
	return e, nil
}

func decodeAs[T engine.Event](data []byte) (engine.Event, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// RoundEnd reports whether e is the end of a round (after the claims).
func (g *Game) RoundEnd(e engine.Event) bool { return e.EventType() == EvRoundEnded }
