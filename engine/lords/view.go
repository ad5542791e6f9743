package lords

import (
	"pbem/engine"
)

// CardView is a card as a seat sees it: rank, clan, strength and the text of
// the clan's power, or only Hidden.
type CardView struct {
	Rank     int    `json:"rank,omitempty"`
	Clan     string `json:"clan,omitempty"`
	Strength int    `json:"strength,omitempty"`
	Power    string `json:"power,omitempty"`
	Hidden   bool   `json:"hidden,omitempty"`
}

// FollowerView is a follower as a seat sees it.
type FollowerView struct {
	CardView
	FaceUp bool `json:"face_up"`
	// Active names an activated end-of-round power on the card.
	Active string `json:"active,omitempty"`
	// Kept marks a MacDonnell carried over from the last round.
	Kept bool `json:"kept,omitempty"`
}

// RecruitView is one recruit place; Empty when the piles ran out.
type RecruitView struct {
	CardView
	FaceUp bool `json:"face_up"`
	Empty  bool `json:"empty,omitempty"`
}

// SeatView is the public part of one seat.
type SeatView struct {
	Seat      int            `json:"seat"`
	HandCount int            `json:"hand_count"`
	Army      []FollowerView `json:"army"`
	Claimed   []CardView     `json:"claimed"`
	Points    int            `json:"points"`
}

// PendingView describes the decision awaited.
type PendingView struct {
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
	// Card is the card whose power is resolved, if any.
	Card *CardView `json:"card,omitempty"`
	Text string    `json:"text"`
}

// View is what one seat sees.
type View struct {
	Game       string        `json:"game"`
	Seat       int           `json:"seat"`
	Players    int           `json:"players"`
	Bruce      bool          `json:"bruce"`
	Round      int           `json:"round"`
	Turn       int           `json:"turn"`
	Phase      Phase         `json:"phase"`
	Initiative int           `json:"initiative"`
	ToMove     []int         `json:"to_move"`
	Hand       []CardView    `json:"hand"`
	Seats      []SeatView    `json:"seats"`
	Recruits   []RecruitView `json:"recruits"`
	Supporters []CardView    `json:"supporters"`
	DrawCount  int           `json:"draw_count"`
	Discard    []CardView    `json:"discard"`
	DiscardN   int           `json:"discard_count"`
	MacDonnell []CarriedView `json:"macdonnell"`
	LastRound  []ScoreView   `json:"last_round,omitempty"`
	Pending    *PendingView  `json:"pending,omitempty"`
	Target     int           `json:"target_points"`
	// LegalMoves are seat's legal moves, for its bot (Game.Bot). They are
	// not in the JSON: the API lists them once, beside the view.
	LegalMoves []engine.Move  `json:"-"`
	Result     *engine.Result `json:"result,omitempty"`
}

// ScoreView is one army as it was scored at the end of the last round
// (public: every follower was revealed then).
type ScoreView struct {
	Seat    int        `json:"seat"`
	Cards   []CardView `json:"cards"`
	Total   int        `json:"total"`
	Doubled bool       `json:"doubled,omitempty"`
	Place   int        `json:"place"`
	Claims  int        `json:"claims"`
}

// CarriedView is a MacDonnell carried over into this round.
type CarriedView struct {
	Seat int      `json:"seat"`
	Card CardView `json:"card"`
}

func (s *State) card(r int) CardView {
	if !s.d.valid(r) {
		return CardView{Hidden: true}
	}
	cl := s.d.clan(r)
	return CardView{Rank: r, Clan: cl.String(), Strength: s.d.strength(r), Power: powerText(cl, s.labels().lang)}
}

// View is what seat may see: its hand, the table, counts of the others'
// hands; engine.Spectator sees only the public table.
func (s *State) View(seat int) engine.SeatView {
	v := View{
		Game: Name, Seat: seat, Players: s.N, Bruce: s.WithBruce, Round: s.Round, Turn: min(s.Turn, 5),
		Phase: s.Phase, Initiative: s.Initiative, ToMove: s.ToMove(), Hand: []CardView{},
		DrawCount: len(s.Draw), DiscardN: len(s.Discard), Target: TargetPoints,
		MacDonnell: []CarriedView{}, LegalMoves: s.Legal(seat), Result: s.Final,
	}
	if v.ToMove == nil {
		v.ToMove = []int{}
	}
	if seat >= 0 && seat < s.N {
		v.Hand = make([]CardView, 0, len(s.Hands[seat]))
		for _, c := range s.Hands[seat] {
			v.Hand = append(v.Hand, s.card(c))
		}
	}
	v.Seats = make([]SeatView, 0, s.N)
	for q := range s.N {
		sv := SeatView{Seat: q, HandCount: len(s.Hands[q]), Army: make([]FollowerView, 0, len(s.Armies[q])),
			Claimed: make([]CardView, 0, len(s.Claimed[q])), Points: s.points(q)}
		for _, f := range s.Armies[q] {
			fv := FollowerView{CardView: CardView{Hidden: true}, FaceUp: f.FaceUp, Kept: f.Kept}
			if f.FaceUp || f.knownBy(seat) {
				fv.CardView = s.card(f.Card)
				if f.Power != noClan {
					fv.Active = f.Power.String()
				}
			}
			if f.Kept {
				v.MacDonnell = append(v.MacDonnell, CarriedView{Seat: q, Card: s.card(f.Card)})
			}
			sv.Army = append(sv.Army, fv)
		}
		for _, c := range s.Claimed[q] {
			sv.Claimed = append(sv.Claimed, s.card(c))
		}
		v.Seats = append(v.Seats, sv)
	}
	for _, r := range s.Recruits {
		rv := RecruitView{CardView: CardView{Hidden: true}, FaceUp: r.FaceUp, Empty: r.Card == 0}
		if r.Card == 0 {
			rv.CardView = CardView{}
		} else if r.FaceUp {
			rv.CardView = s.card(r.Card)
		}
		v.Recruits = append(v.Recruits, rv)
	}
	v.Supporters = make([]CardView, 0, len(s.Supporters))
	for _, c := range s.Supporters {
		v.Supporters = append(v.Supporters, s.card(c))
	}
	// Every card reaches the discard pile revealed (followers are revealed
	// at the end of the round, Wemyss shows what it discards), so the pile
	// is public.
	v.Discard = make([]CardView, 0, len(s.Discard))
	for _, c := range s.Discard {
		v.Discard = append(v.Discard, s.card(c))
	}
	for _, a := range s.Order {
		sv := ScoreView{Seat: a.Seat, Cards: make([]CardView, 0, len(a.Cards)), Total: a.Total, Doubled: a.Doubled, Place: a.Place, Claims: a.Claims}
		for _, c := range a.Cards {
			sv.Cards = append(sv.Cards, s.card(c))
		}
		v.LastRound = append(v.LastRound, sv)
	}
	v.Pending = s.pendingView()
	return v
}

// pendingView says in the game's language what decision is awaited.
func (s *State) pendingView() *PendingView {
	seat := s.awaited()
	if seat < 0 {
		return nil
	}
	l := s.labels()
	pv := &PendingView{Seat: seat}
	switch {
	case s.Phase == PhaseClaim:
		pv.Kind = "claim"
		pv.Text = l.t("pending.claim_one")
		if s.ClaimsLeft > 1 {
			pv.Text = l.t("pending.claim_two")
		}
	case s.Pending == nil:
		pv.Kind = "turn"
		pv.Text = l.t("pending.turn")
	default:
		p := s.Pending
		pv.Kind = p.Kind
		c := s.card(p.Card)
		pv.Card = &c
		switch p.Kind {
		case "activate":
			pv.Text = l.t("pending.activate", l.card(p.Card), lowerFirst(powerText(p.Power, l.lang)))
		case "target":
			pv.Text = l.t("pending.target", lowerFirst(powerText(p.Power, l.lang)))
		case "muster":
			pv.Text = l.t("pending.muster")
		}
	}
	return pv
}

// ViewSeat implements engine.SeatView.
func (v View) ViewSeat() int { return v.Seat }

var _ engine.MovesView = View{}

// Moves implements engine.MovesView: the seat's legal moves.
func (v View) Moves() []engine.Move { return v.LegalMoves }

// Score implements engine.SeatView: the round, and each seat's points.
func (v View) Score() engine.Score {
	sc := engine.Score{Round: v.Round}
	for _, s := range v.Seats {
		sc.Seats = append(sc.Seats, s.Points)
	}
	return sc
}
