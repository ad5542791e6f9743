package bagpipes

import "pbem/engine"

// View is what one seat may see.
type View struct {
	Game         string       `json:"game"`
	Seat         int          `json:"seat"`
	Round        int          `json:"round"`
	Rounds       int          `json:"rounds"`
	Phase        string       `json:"phase"`
	ToMove       []int        `json:"to_move"`
	Badge        int          `json:"badge_of_honour"`
	StayToken    int          `json:"stay_home_token"`
	StayingHome  int          `json:"staying_home"`
	Defeats      int          `json:"defeats"`
	DefeatLimit  int          `json:"defeat_limit"`
	Army         *ArmyView    `json:"army,omitempty"`
	ArmyLeft     int          `json:"army_cards_left"`
	ScotlandCamp int          `json:"scotland_camp"`
	EnglandBonus int          `json:"england_bonus"`
	Battle       *BattleView  `json:"battle,omitempty"`
	Decks        DecksView    `json:"decks"`
	Players      []PlayerView `json:"players"`
	Hand         []CardView   `json:"hand"`
	Options      Options      `json:"options"`
	// LegalMoves are seat's legal moves, for its bot (Game.ChooseBot). They
	// are not in the JSON: the API lists them once, beside the view.
	LegalMoves []Move `json:"-"`
	// UnitFloor is the state's (ruling 4, by the game's rules version:
	// public), for the bot's sampled worlds to list the view's moves.
	UnitFloor bool           `json:"-"`
	Result    *engine.Result `json:"result,omitempty"`
}

// ArmyView is the revealed English army card (Shield: its shield in this
// game, see ArmyCard.ShieldFor).
type ArmyView struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Shield      int    `json:"shield"`
	ScotlandWon int    `json:"scotland_won"`
	EnglandWon  int    `json:"england_won"`
	Crown       int    `json:"crown"`
	Generous    bool   `json:"generous"`
	// Text is the card's special effect in the game's language.
	Text string `json:"text,omitempty"`
}

// BattleView is the outcome of this round's battle, once fought.
type BattleView struct {
	Scotland int    `json:"scotland"`
	England  int    `json:"england"`
	Winner   string `json:"winner"`
}

// DecksView counts the cards in the decks and discards.
type DecksView struct {
	Bagpipe        int `json:"bagpipe"`
	BagpipeDiscard int `json:"bagpipe_discard"`
	Dagger         int `json:"dagger"`
	DaggerDiscard  int `json:"dagger_discard"`
}

// CardView is a bagpipe card as a player sees it.
type CardView struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Phase string `json:"phase"`
	X2    bool   `json:"x2"`
	// Text is the card's effects in the game's language (Name is the
	// card's printed name, never translated).
	Text string `json:"text"`
	// Fresh: received in this awards phase, not playable in it.
	Fresh bool `json:"fresh,omitempty"`
	// Ready: a face-up "x2" card that may be played again this round.
	Ready bool `json:"ready,omitempty"`
}

// PlayerView is one seat's public holdings, and its secrets for itself.
type PlayerView struct {
	Seat        int        `json:"seat"`
	Gold        int        `json:"gold"`
	Castle      int        `json:"castle"`
	Camp        int        `json:"camp"`
	HandCount   int        `json:"hand_count"`
	Table       []CardView `json:"table"`
	DaggerCards int        `json:"dagger_cards"`
	// Daggers lists the dagger counts of the cards, for the seat itself,
	// for everyone at the end, and for face-up cards of the 2-player game.
	Daggers      []int  `json:"daggers,omitempty"`
	DaggerTotal  *int   `json:"dagger_total,omitempty"`
	OfferCards   int    `json:"offer_cards,omitempty"` // 2 players: dagger cards still to offer
	OfferDaggers []int  `json:"offer_daggers,omitempty"`
	Spent        []int  `json:"spent,omitempty"` // 2 players: offered cards discarded
	Chosen       bool   `json:"chosen"`
	Side         string `json:"side,omitempty"`
	Offered      int    `json:"offered,omitempty"` // 2 players: the dagger card prepared (self)
	Deserter     bool   `json:"deserter,omitempty"`
	StayingHome  bool   `json:"staying_home,omitempty"`
}

func (s *state) cardView(c int) CardView {
	b := &s.Set.Bagpipes[c]
	return CardView{ID: b.ID, Name: s.Set.bagName(c, s.labels().language()), Phase: b.Phase, X2: b.X2, Text: s.Set.texts[s.labels().language()][c]}
}

// View is what seat may see; engine.Spectator sees only public things.
func (s *state) View(seat int) engine.SeatView {
	v := View{
		Game: Name, Seat: seat, Round: s.Round, Rounds: s.Rounds, Phase: s.Phase, ToMove: s.ToMove(),
		Badge: s.Badge, StayToken: s.Stay, StayingHome: s.StayHome, Defeats: s.Defeats, DefeatLimit: s.DefeatLimit,
		ArmyLeft: len(s.ArmyDeck), ScotlandCamp: s.ScotCamp, EnglandBonus: s.EngBonus,
		Decks: DecksView{len(s.Bag), len(s.BagOut), len(s.Dag), len(s.DagOut)},
		Hand:  []CardView{}, Options: s.Opt, LegalMoves: s.legal(seat), UnitFloor: s.UnitFloor, Result: s.Res,
		Players: make([]PlayerView, s.N),
	}
	if s.Army >= 0 {
		a := s.army()
		v.Army = &ArmyView{a.ID, s.Set.armyName(s.Army, s.labels().language()), s.shield(), a.ScotlandWon, a.EnglandWon, a.Crown, a.Generous, s.Set.armyTexts[s.labels().language()][s.Army]}
	}
	if s.Revealed {
		v.Battle = &BattleView{s.ScotForce, s.EngForce, sideNames[s.Won]}
	}
	over := s.Res != nil
	for i := range s.P {
		p := &s.P[i]
		pv := PlayerView{Seat: i, Gold: p.Gold, Castle: p.Castle, Camp: p.Camp, HandCount: len(p.Hand),
			Table: []CardView{}, DaggerCards: len(p.Daggers) + p.Virtual, OfferCards: len(p.DagHand),
			Chosen: p.Side != sideNone, Deserter: p.Deserter, StayingHome: i == s.StayHome}
		for k, c := range p.Table {
			cv := s.cardView(c)
			cv.Ready = p.TableRound[k] < s.Round
			pv.Table = append(pv.Table, cv)
		}
		mine := i == seat
		if mine || over || s.N == 2 {
			for _, d := range p.Daggers {
				pv.Daggers = append(pv.Daggers, s.Set.Daggers[d].Daggers)
			}
			for range p.Virtual {
				pv.Daggers = append(pv.Daggers, 2)
			}
			t := s.daggerTotal(i)
			pv.DaggerTotal = &t
		}
		for _, d := range p.Spent {
			pv.Spent = append(pv.Spent, s.Set.Daggers[d].Daggers)
		}
		if mine || over {
			for _, d := range p.DagHand {
				pv.OfferDaggers = append(pv.OfferDaggers, s.Set.Daggers[d].Daggers)
			}
		}
		if mine && p.Prepared >= 0 {
			pv.Offered = s.Set.Daggers[p.Prepared].Daggers
		}
		if p.Side != sideNone && (mine || s.Revealed || s.bound(i)) {
			pv.Side = sideNames[p.Side]
		}
		if mine {
			for k, c := range p.Hand {
				cv := s.cardView(c)
				cv.Fresh = k >= len(p.Hand)-p.Fresh
				v.Hand = append(v.Hand, cv)
			}
		}
		v.Players[i] = pv
	}
	return v
}

// ViewSeat implements engine.SeatView.
func (v View) ViewSeat() int { return v.Seat }

var _ engine.MovesView = View{}

// Moves implements engine.MovesView: the seat's legal moves.
func (v View) Moves() []engine.Move {
	out := make([]engine.Move, len(v.LegalMoves))
	for i, m := range v.LegalMoves {
		out[i] = m
	}
	return out
}

// Score implements engine.SeatView: the round, and each player's gold.
func (v View) Score() engine.Score {
	sc := engine.Score{Round: v.Round}
	for _, p := range v.Players {
		sc.Seats = append(sc.Seats, p.Gold)
	}
	return sc
}
