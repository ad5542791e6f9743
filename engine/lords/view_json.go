package lords

import (
	"encoding/json"
	"strconv"

	"pbem/engine"
)

// MarshalJSON writes the view as encoding/json writes its fields (same
// order, same omitempty rules, same escaping), compact, by appending bytes
// instead of reflecting over every card.
func (v View) MarshalJSON() ([]byte, error) {
	return v.AppendJSON(make([]byte, 0, 4096))
}

// AppendJSON appends the view's JSON (as MarshalJSON writes it) to b.
func (v View) AppendJSON(b []byte) ([]byte, error) {
	return v.appendJSON(b, nil)
}

// AppendJSONMoves appends the view's JSON with moves, the JSON of its
// LegalMoves already encoded (as AppendMoves writes them), copied in
// place of encoding them again.
func (v View) AppendJSONMoves(b, moves []byte) ([]byte, error) {
	return v.appendJSON(b, moves)
}

func (v *View) appendJSON(b, moves []byte) ([]byte, error) {
	m := new(plainMemo)
	b = append(b, `{"game":`...)
	b = appendJSONString(b, v.Game)
	b = appendIntField(b, `,"seat":`, v.Seat)
	b = appendIntField(b, `,"players":`, v.Players)
	b = append(b, `,"bruce":`...)
	b = strconv.AppendBool(b, v.Bruce)
	b = appendIntField(b, `,"round":`, v.Round)
	b = appendIntField(b, `,"turn":`, v.Turn)
	b = append(b, `,"phase":`...)
	b = appendJSONString(b, string(v.Phase))
	b = appendIntField(b, `,"initiative":`, v.Initiative)
	b = append(b, `,"to_move":`...)
	b = appendInts(b, v.ToMove)
	b = append(b, `,"hand":`...)
	b = appendCards(m, b, v.Hand)
	b = append(b, `,"seats":`...)
	if v.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSeatView(m, b, &v.Seats[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"recruits":`...)
	if v.Recruits == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Recruits {
			if i > 0 {
				b = append(b, ',')
			}
			r := &v.Recruits[i]
			b = appendCardFields(m, append(b, '{'), &r.CardView)
			b = appendBoolField(b, r.CardView, `"face_up":`, r.FaceUp)
			if r.Empty {
				b = append(b, `,"empty":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"supporters":`...)
	b = appendCards(m, b, v.Supporters)
	b = appendIntField(b, `,"draw_count":`, v.DrawCount)
	b = append(b, `,"discard":`...)
	b = appendCards(m, b, v.Discard)
	b = appendIntField(b, `,"discard_count":`, v.DiscardN)
	b = append(b, `,"macdonnell":`...)
	if v.MacDonnell == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.MacDonnell {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendIntField(b, `{"seat":`, v.MacDonnell[i].Seat)
			b = appendCard(m, append(b, `,"card":`...), &v.MacDonnell[i].Card)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(v.LastRound) > 0 {
		b = append(b, `,"last_round":[`...)
		for i := range v.LastRound {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendScoreView(m, b, &v.LastRound[i])
		}
		b = append(b, ']')
	}
	if p := v.Pending; p != nil {
		b = appendIntField(b, `,"pending":{"seat":`, p.Seat)
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, p.Kind)
		if p.Card != nil {
			b = appendCard(m, append(b, `,"card":`...), p.Card)
		}
		b = append(b, `,"text":`...)
		b = appendJSONString(b, p.Text)
		b = append(b, '}')
	}
	b = appendIntField(b, `,"target_points":`, v.Target)
	b = append(b, `,"legal_moves":`...)
	if moves != nil {
		b = append(b, moves...)
	} else {
		var err error
		if b, err = AppendMoves(b, v.LegalMoves); err != nil {
			return nil, err
		}
	}
	if v.Result != nil {
		r, err := json.Marshal(v.Result)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"result":`...), r...)
	}
	return append(b, '}'), nil
}

// AppendJSON appends the move's JSON (as MarshalJSON writes it) to b.
func (m *Move) AppendJSON(b []byte) ([]byte, error) {
	return m.appendJSON(b), nil
}

// Moves returns the seat's legal moves the view carries (State.Legal).
func (v View) Moves() []engine.Move {
	return v.LegalMoves
}

// AppendMoves appends moves as encoding/json writes a []engine.Move (null
// when nil); this game's moves append themselves, others go through
// json.Marshal.
func AppendMoves(b []byte, moves []engine.Move) ([]byte, error) {
	if moves == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, m := range moves {
		if i > 0 {
			b = append(b, ',')
		}
		if lm, ok := m.(*Move); ok && lm != nil {
			b = lm.appendJSON(b)
			continue
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		b = append(b, raw...)
	}
	return append(b, ']'), nil
}

func appendIntField(b []byte, key string, n int) []byte {
	return strconv.AppendInt(append(b, key...), int64(n), 10)
}

// appendBoolField appends a non-omitempty bool after the fields of c,
// with the comma only when c wrote something.
func appendBoolField(b []byte, c CardView, key string, v bool) []byte {
	if c != (CardView{}) {
		b = append(b, ',')
	}
	return strconv.AppendBool(append(b, key...), v)
}

func appendInts(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func appendCards(m *plainMemo, b []byte, cs []CardView) []byte {
	if cs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCard(m, b, &cs[i])
	}
	return append(b, ']')
}

func appendCard(m *plainMemo, b []byte, c *CardView) []byte {
	return append(appendCardFields(m, append(b, '{'), c), '}')
}

// appendCardFields appends the card's non-empty fields, comma-separated,
// without braces.
func appendCardFields(m *plainMemo, b []byte, c *CardView) []byte {
	sep := false
	key := func(k string) {
		if sep {
			b = append(b, ',')
		}
		sep = true
		b = append(b, k...)
	}
	if c.Rank != 0 {
		key(`"rank":`)
		b = strconv.AppendInt(b, int64(c.Rank), 10)
	}
	if c.Clan != "" {
		key(`"clan":`)
		b = m.appendString(b, c.Clan)
	}
	if c.Strength != 0 {
		key(`"strength":`)
		b = strconv.AppendInt(b, int64(c.Strength), 10)
	}
	if c.Power != "" {
		key(`"power":`)
		b = m.appendString(b, c.Power)
	}
	if c.Hidden {
		key(`"hidden":true`)
	}
	return b
}

func appendSeatView(m *plainMemo, b []byte, s *SeatView) []byte {
	b = appendIntField(b, `{"seat":`, s.Seat)
	b = appendIntField(b, `,"hand_count":`, s.HandCount)
	b = append(b, `,"army":`...)
	if s.Army == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range s.Army {
			if i > 0 {
				b = append(b, ',')
			}
			f := &s.Army[i]
			b = appendCardFields(m, append(b, '{'), &f.CardView)
			b = appendBoolField(b, f.CardView, `"face_up":`, f.FaceUp)
			if f.Active != "" {
				b = append(b, `,"active":`...)
				b = appendJSONString(b, f.Active)
			}
			if f.Kept {
				b = append(b, `,"kept":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"claimed":`...)
	b = appendCards(m, b, s.Claimed)
	b = appendIntField(b, `,"points":`, s.Points)
	return append(b, '}')
}

func appendScoreView(m *plainMemo, b []byte, s *ScoreView) []byte {
	b = appendIntField(b, `{"seat":`, s.Seat)
	b = append(b, `,"cards":`...)
	b = appendCards(m, b, s.Cards)
	b = appendIntField(b, `,"total":`, s.Total)
	if s.Doubled {
		b = append(b, `,"doubled":true`...)
	}
	b = appendIntField(b, `,"place":`, s.Place)
	b = appendIntField(b, `,"claims":`, s.Claims)
	return append(b, '}')
}

// plainMemo remembers strings of one view found to need no escaping: a
// view repeats its few clans' names and power texts on every card.
type plainMemo struct {
	n int
	s [16]string
}

// appendString appends s as appendJSONString does, scanning it only the
// first time it is seen.
func (m *plainMemo) appendString(b []byte, s string) []byte {
	for i := range m.n {
		if m.s[i] == s {
			return append(append(append(b, '"'), s...), '"')
		}
	}
	if !plainJSON(s) {
		return appendJSONString(b, s)
	}
	if m.n < len(m.s) {
		m.s[m.n] = s
		m.n++
	}
	return append(append(append(b, '"'), s...), '"')
}
