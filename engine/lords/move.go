package lords

import (
	"bytes"
	"encoding/json"

	"pbem/engine"
)

// Move types.
const (
	MoveRecruit = "recruit" // {"type":"recruit","slot":0..4}
	MoveMuster  = "muster"  // {"type":"muster","card":rank,"face_up":bool}
	MovePower   = "power"   // {"type":"power","use":bool}
	MoveTarget  = "target"  // {"type":"target","seat":s,"index":i} or {"type":"target","card":supporter}
	MoveCopy    = "copy"    // {"type":"copy","seat":s,"index":i}
	MoveClaim   = "claim"   // {"type":"claim","card":rank}
)

// Move is one decision. Its JSON form is an object with "type", the fields
// of that type and a "label"; Label is computed from the state it was
// listed in (a decoded move keeps the label it was posted with, ignored).
type Move struct {
	Type   string
	Slot   int
	Card   int
	Seat   int
	Index  int
	FaceUp bool
	Use    bool

	// for the label (a decoded move has none: its posted label is ignored)
	lab   *labeling
	power Clan // the power the move is about
	show  int  // the card the move names, 0 if hidden from the mover
}

// Label is the move's human description in the game's language, naming
// the players and only the cards the mover may see; a decoded move has none
// and answers its type.
func (m *Move) Label() string {
	if m.lab == nil {
		return m.Type
	}
	return m.describe()
}

var _ engine.MoveAppender = (*Move)(nil)

// same reports whether two moves are the same decision (labels aside).
func (m *Move) same(o *Move) bool {
	return m.Type == o.Type && m.Slot == o.Slot && m.Card == o.Card && m.Seat == o.Seat &&
		m.Index == o.Index && m.FaceUp == o.FaceUp && m.Use == o.Use
}

// MarshalJSON writes {"type":...,fields...,"label":...}: only the fields
// the move's type uses, in that order (see AppendJSON).
func (m *Move) MarshalJSON() ([]byte, error) { return m.AppendJSON(make([]byte, 0, 96)), nil }

// AppendJSON appends the move's JSON to b (engine.MoveAppender), as
// engine.MoveJSON writes it: only the fields the move's type uses.
func (m *Move) AppendJSON(b []byte) []byte {
	j := engine.AppendMoveJSON(b, m.Type)
	switch m.Type {
	case MoveRecruit:
		j.Int("slot", m.Slot)
	case MoveMuster:
		j.Int("card", m.Card).Bool("face_up", m.FaceUp)
	case MovePower:
		j.Bool("use", m.Use)
	case MoveTarget, MoveCopy:
		if m.Card == 0 {
			j.Int("seat", m.Seat).Int("index", m.Index)
		} else {
			j.Int("card", m.Card)
		}
	case MoveClaim:
		j.Int("card", m.Card)
	}
	return j.Label(m.Label())
}

type moveJSON struct {
	Type   *string `json:"type"`
	Slot   *int    `json:"slot"`
	Card   *int    `json:"card"`
	Seat   *int    `json:"seat"`
	Index  *int    `json:"index"`
	FaceUp *bool   `json:"face_up"`
	Use    *bool   `json:"use"`
	Label  *string `json:"label"`
}

// decodeMove parses a posted move strictly: unknown fields, missing fields
// and fields of another move type are a bad_move.
func decodeMove(data []byte) (*Move, error) {
	var in moveJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, engine.Errorf(engine.CodeBadMove, "not a move: %v", err)
	}
	if dec.More() {
		return nil, engine.Errorf(engine.CodeBadMove, "trailing data after the move")
	}
	if in.Type == nil {
		return nil, engine.Errorf(engine.CodeBadMove, "the move has no type")
	}
	m := &Move{Type: *in.Type}
	has := map[string]bool{
		"slot": in.Slot != nil, "card": in.Card != nil, "seat": in.Seat != nil,
		"index": in.Index != nil, "face_up": in.FaceUp != nil, "use": in.Use != nil,
	}
	var want []string
	switch m.Type {
	case MoveRecruit:
		want = []string{"slot"}
	case MoveMuster:
		want = []string{"card", "face_up"}
	case MovePower:
		want = []string{"use"}
	case MoveClaim:
		want = []string{"card"}
	case MoveCopy:
		want = []string{"seat", "index"}
	case MoveTarget:
		want = []string{"seat", "index"}
		if has["card"] {
			want = []string{"card"}
		}
	default:
		return nil, engine.Errorf(engine.CodeBadMove, "unknown move type %q", m.Type)
	}
	for _, k := range want {
		if !has[k] {
			return nil, engine.Errorf(engine.CodeBadMove, "a %s move needs %q", m.Type, k)
		}
		delete(has, k)
	}
	for k, v := range has {
		if v {
			return nil, engine.Errorf(engine.CodeBadMove, "a %s move has no %q", m.Type, k)
		}
	}
	get := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	m.Slot, m.Card, m.Seat, m.Index = get(in.Slot), get(in.Card), get(in.Seat), get(in.Index)
	m.FaceUp = in.FaceUp != nil && *in.FaceUp
	m.Use = in.Use != nil && *in.Use
	if m.Type == MoveTarget && in.Card != nil && m.Card == 0 {
		return nil, engine.Errorf(engine.CodeBadMove, "card 0 does not exist")
	}
	return m, nil
}
