package bagpipes

import (
	"bytes"
	"encoding/json"

	"pbem/engine"
)

// Move types, the "type" of a move's JSON object.
const (
	MoveReplenish = "replenish"  // action: taxes, militia, troops or mercenaries
	MoveRelocate  = "relocate"   // units: castle to camp
	MovePlay      = "play"       // card, and units and/or target when the card asks
	MoveEndTurn   = "end_turn"   // end your turn of the actions phase
	MovePassBadge = "pass_badge" // to: give the badge of honour
	MoveKeepBadge = "keep_badge" // 2 players: keep the badge
	MoveStayHome  = "stay_home"  // to: give the Stay Home! token
	MoveChoose    = "choose"     // side (scotland or england), and dagger (2 players)
	MovePass      = "pass"       // play no (more) bagpipe cards in this phase
)

// Replenishment actions.
const (
	ActTaxes       = "taxes"
	ActMilitia     = "militia"
	ActTroops      = "troops"
	ActMercenaries = "mercenaries"
)

var replenishActions = [...]string{ActTaxes, ActMilitia, ActTroops, ActMercenaries}

// Move is one decision of a seat. Absent numbers are -1 (Dagger: 0).
type Move struct {
	Type   string
	Action string
	Card   string
	Units  int
	To     int
	Target int
	Side   string
	Dagger int
	// lab is the listing state's labeling (nil for a posted move: a
	// posted label is ignored); step numbers a staying-home
	// replenishment, 1 to 3 (0: an ordinary one).
	lab  *labeling
	step int
}

// Label is the move's description in the game's language, naming players
// by their names. It is written on demand: listing moves formats nothing.
// A posted move (whose label was ignored) gets an English label.
func (m Move) Label() string {
	if m.lab != nil {
		return m.lab.label(m)
	}
	l := labeling{}
	if cs, err := defaultCards(); err == nil {
		l.set = cs
	}
	return l.label(m)
}

type wireMove struct {
	Type   string `json:"type"`
	Action string `json:"action,omitempty"`
	Card   string `json:"card,omitempty"`
	Units  *int   `json:"units,omitempty"`
	To     *int   `json:"to,omitempty"`
	Target *int   `json:"target,omitempty"`
	Side   string `json:"side,omitempty"`
	Dagger *int   `json:"dagger,omitempty"`
	Label  string `json:"label"`
}

// MarshalJSON writes only the fields the move's type uses, in wireMove's
// order (see AppendJSON).
func (m Move) MarshalJSON() ([]byte, error) { return m.AppendJSON(make([]byte, 0, 96)), nil }

// AppendJSON appends the move's JSON to b (engine.MoveAppender), as
// engine.MoveJSON writes it: only the fields the move's type uses, in
// wireMove's order.
func (m Move) AppendJSON(b []byte) []byte {
	j := engine.AppendMoveJSON(b, m.Type)
	if m.Action != "" {
		j.String("action", m.Action)
	}
	if m.Card != "" {
		j.String("card", m.Card)
	}
	for _, f := range []struct {
		name      string
		v, absent int
	}{{"units", m.Units, -1}, {"to", m.To, -1}, {"target", m.Target, -1}} {
		if f.v != f.absent {
			j.Int(f.name, f.v)
		}
	}
	if m.Side != "" {
		j.String("side", m.Side)
	}
	if m.Dagger != 0 {
		j.Int("dagger", m.Dagger)
	}
	return j.Label(m.Label())
}

var _ engine.MoveAppender = Move{}

func noMove() Move { return Move{Units: -1, To: -1, Target: -1} }

// decodeMove parses a posted move strictly.
func decodeMove(data []byte) (Move, error) {
	var w wireMove
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Move{}, engine.Errorf(engine.CodeBadMove, "move: %v", err)
	}
	if dec.More() {
		return Move{}, engine.Errorf(engine.CodeBadMove, "move: trailing data")
	}
	m := noMove()
	m.Type, m.Action, m.Card, m.Side = w.Type, w.Action, w.Card, w.Side
	for _, f := range []struct {
		name string
		p    *int
		dst  *int
	}{{"units", w.Units, &m.Units}, {"to", w.To, &m.To}, {"target", w.Target, &m.Target}, {"dagger", w.Dagger, &m.Dagger}} {
		if f.p == nil {
			continue
		}
		if *f.p < 0 || (f.name == "dagger" && *f.p == 0) {
			return Move{}, engine.Errorf(engine.CodeBadMove, "move: %s: %d is out of range", f.name, *f.p)
		}
		*f.dst = *f.p
	}
	has := map[string]bool{
		"action": w.Action != "", "card": w.Card != "", "units": w.Units != nil, "to": w.To != nil,
		"target": w.Target != nil, "side": w.Side != "", "dagger": w.Dagger != nil,
	}
	var need, may []string
	switch w.Type {
	case MoveReplenish:
		need = []string{"action"}
	case MoveRelocate:
		need = []string{"units"}
	case MovePlay:
		need, may = []string{"card"}, []string{"units", "target"}
	case MoveEndTurn, MoveKeepBadge, MovePass:
	case MovePassBadge, MoveStayHome:
		need = []string{"to"}
	case MoveChoose:
		need, may = []string{"side"}, []string{"dagger"}
	case "":
		return Move{}, engine.Errorf(engine.CodeBadMove, "move: missing type")
	default:
		return Move{}, engine.Errorf(engine.CodeBadMove, "move: unknown type %q", w.Type)
	}
	for _, f := range need {
		if !has[f] {
			return Move{}, engine.Errorf(engine.CodeBadMove, "move %s: missing %s", w.Type, f)
		}
		delete(has, f)
	}
	for _, f := range may {
		delete(has, f)
	}
	for f, ok := range has {
		if ok {
			return Move{}, engine.Errorf(engine.CodeBadMove, "move %s: unexpected field %s", w.Type, f)
		}
	}
	return m, nil
}
