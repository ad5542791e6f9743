package lords

import "pbem/engine"

// AppendJSON implements engine.ViewAppender: it appends what json.Marshal
// writes for v, field by field in the order of the struct tags (the
// conformance suite compares the two in deep games, so a field added to a
// view type without its line here fails it).
func (v View) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = engine.AppendStringField(b, "game", v.Game)
	b = engine.AppendInt(b, "seat", v.Seat)
	b = engine.AppendInt(b, "players", v.Players)
	b = engine.AppendBool(b, "bruce", v.Bruce)
	b = engine.AppendInt(b, "round", v.Round)
	b = engine.AppendInt(b, "turn", v.Turn)
	b = engine.AppendStringField(b, "phase", string(v.Phase))
	b = engine.AppendInt(b, "initiative", v.Initiative)
	b = engine.AppendInts(engine.AppendField(b, "to_move"), v.ToMove)
	b = appendCards(engine.AppendField(b, "hand"), v.Hand)
	b = engine.AppendField(b, "seats")
	b = engine.AppendList(b, v.Seats, SeatView.appendJSON)
	b = engine.AppendField(b, "recruits")
	b = engine.AppendList(b, v.Recruits, RecruitView.appendJSON)
	b = appendCards(engine.AppendField(b, "supporters"), v.Supporters)
	b = engine.AppendInt(b, "draw_count", v.DrawCount)
	b = appendCards(engine.AppendField(b, "discard"), v.Discard)
	b = engine.AppendInt(b, "discard_count", v.DiscardN)
	b = engine.AppendField(b, "macdonnell")
	b = engine.AppendList(b, v.MacDonnell, CarriedView.appendJSON)
	if len(v.LastRound) > 0 {
		b = engine.AppendField(b, "last_round")
		b = engine.AppendList(b, v.LastRound, ScoreView.appendJSON)
	}
	if v.Pending != nil {
		b = v.Pending.appendJSON(engine.AppendField(b, "pending"))
	}
	b = engine.AppendInt(b, "target_points", v.Target)
	if v.Result != nil {
		b = engine.AppendMarshal(engine.AppendField(b, "result"), v.Result)
	}
	return append(b, '}')
}

func appendCards(b []byte, cs []CardView) []byte {
	return engine.AppendList(b, cs, CardView.appendJSON)
}

func (c CardView) appendJSON(b []byte) []byte {
	return append(c.appendFields(append(b, '{')), '}')
}

// appendFields appends the card's fields (all omitempty) to an object
// being written: a follower's and a recruit's JSON hold them inline.
func (c CardView) appendFields(b []byte) []byte {
	if c.Rank != 0 {
		b = engine.AppendInt(b, "rank", c.Rank)
	}
	if c.Clan != "" {
		b = engine.AppendStringField(b, "clan", c.Clan)
	}
	if c.Strength != 0 {
		b = engine.AppendInt(b, "strength", c.Strength)
	}
	if c.Power != "" {
		b = engine.AppendStringField(b, "power", c.Power)
	}
	if c.Hidden {
		b = engine.AppendBool(b, "hidden", true)
	}
	return b
}

func (f FollowerView) appendJSON(b []byte) []byte {
	b = f.CardView.appendFields(append(b, '{'))
	b = engine.AppendBool(b, "face_up", f.FaceUp)
	if f.Active != "" {
		b = engine.AppendStringField(b, "active", f.Active)
	}
	if f.Kept {
		b = engine.AppendBool(b, "kept", true)
	}
	return append(b, '}')
}

func (r RecruitView) appendJSON(b []byte) []byte {
	b = r.CardView.appendFields(append(b, '{'))
	b = engine.AppendBool(b, "face_up", r.FaceUp)
	if r.Empty {
		b = engine.AppendBool(b, "empty", true)
	}
	return append(b, '}')
}

func (s SeatView) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = engine.AppendInt(b, "seat", s.Seat)
	b = engine.AppendInt(b, "hand_count", s.HandCount)
	b = engine.AppendField(b, "army")
	b = engine.AppendList(b, s.Army, FollowerView.appendJSON)
	b = appendCards(engine.AppendField(b, "claimed"), s.Claimed)
	b = engine.AppendInt(b, "points", s.Points)
	return append(b, '}')
}

func (p *PendingView) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = engine.AppendInt(b, "seat", p.Seat)
	b = engine.AppendStringField(b, "kind", p.Kind)
	if p.Card != nil {
		b = p.Card.appendJSON(engine.AppendField(b, "card"))
	}
	b = engine.AppendStringField(b, "text", p.Text)
	return append(b, '}')
}

func (s ScoreView) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = engine.AppendInt(b, "seat", s.Seat)
	b = appendCards(engine.AppendField(b, "cards"), s.Cards)
	b = engine.AppendInt(b, "total", s.Total)
	if s.Doubled {
		b = engine.AppendBool(b, "doubled", true)
	}
	b = engine.AppendInt(b, "place", s.Place)
	b = engine.AppendInt(b, "claims", s.Claims)
	return append(b, '}')
}

func (c CarriedView) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = engine.AppendInt(b, "seat", c.Seat)
	b = c.Card.appendJSON(engine.AppendField(b, "card"))
	return append(b, '}')
}
