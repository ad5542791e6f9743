package bagpipes

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"pbem/engine"
)

// errCustomCards: the view shows a card of a custom set, which the bots
// cannot know (the view does not carry the set).
var errCustomCards = errors.New("bagpipes bot: the game uses a custom card set")

// knowledge is what a seat has learnt from its redacted history beyond
// its view.
type knowledge struct {
	seat int
	// armies are the army cards revealed so far.
	armies map[string]bool
	// badgeFrom and stayFrom are the last givers of the badge and the
	// token, badgeRound the round of the last 2-player pass; stayActs counts the replenishments since the token was given.
	badgeFrom, badgeRound, stayFrom, stayActs int
	// fresh counts each seat's bagpipe cards received in this round's
	// awards phase (not playable in it).
	fresh []int
	// virtual counts the seat's own virtual dagger cards.
	virtual int
	// offered (2 players) holds the dagger counts each seat has offered,
	// shown at each battle; took2 counts the real 2-dagger cards each seat
	// took from the other's offers.
	offered [][]int
	took2   []int
}

// knowledgeOf reads the seat's redacted history.
func knowledgeOf(v *View, history []engine.Event) *knowledge {
	n := len(v.Players)
	k := &knowledge{seat: v.Seat, armies: map[string]bool{}, badgeFrom: -1, stayFrom: -1,
		fresh: make([]int, n), offered: make([][]int, n), took2: make([]int, n)}
	seat := func(q int) bool { return q >= 0 && q < n }
	awards := false
	draws := func(ds []Draw) {
		for _, d := range ds {
			if !seat(d.Seat) {
				continue
			}
			if awards && d.Deck == "bagpipe" {
				k.fresh[d.Seat]++
			}
			if d.Seat == v.Seat && d.Virtual {
				switch d.Deck {
				case "dagger":
					k.virtual++
				case "dagger_discard":
					k.virtual--
				}
			}
		}
	}
	for _, e := range history {
		switch e := e.(type) {
		case RoundStarted:
			k.armies[e.Army] = true
		case BadgePassed:
			k.badgeFrom = e.From
			if e.Round > 0 {
				k.badgeRound = e.Round
			}
		case StayHomeGiven:
			k.stayFrom, k.stayActs = e.From, 0
		case Replenished:
			if e.Stay {
				k.stayActs++
			}
		case Battle:
			if n == 2 && len(e.Offered) == 2 && len(e.Sides) == 2 {
				for q := range 2 {
					if e.Offered[q] > 0 {
						k.offered[q] = append(k.offered[q], e.Offered[q])
					}
					if e.Sides[q] == sideNames[sideEngland] && e.Offered[1-q] == 2 {
						k.took2[q]++
					}
				}
			}
		case Awards:
			awards = true
			draws(e.Draws)
		case CardPlayed:
			draws(e.Draws)
		case RoundEnded:
			awards = false
			clear(k.fresh)
		}
	}
	k.virtual = max(k.virtual, 0)
	return k
}

// sample builds a full state consistent with the view and the knowledge:
// the unseen bagpipe cards are dealt at random among the other hands, the
// deck and the discard; the unseen dagger cards likewise (2 players: the
// opponent's offer hand is what it was dealt less what it showed); the
// army cards not yet revealed make the army deck, King Edward at the
// bottom; a choice not yet revealed, or not yet made, is the greedy
// player's.
func (k *knowledge) sample(v *View, r *rand.Rand) (*state, error) {
	set := DefaultCards()
	n, me := len(v.Players), v.Seat
	var key [32]byte
	for i := 0; i < len(key); i += 8 {
		x := r.Uint64()
		for j := range 8 {
			key[i+j] = byte(x >> (8 * j))
		}
	}
	s := &state{
		Set: set, Opt: v.Options, N: n, Round: v.Round, Rounds: v.Rounds, Phase: v.Phase,
		Army: -1, Badge: v.Badge, BadgeFrom: k.badgeFrom, BadgeRound: k.badgeRound, Stay: v.StayToken, StayFrom: k.stayFrom,
		StayHome: v.StayingHome, Defeats: v.Defeats, DefeatLimit: v.DefeatLimit,
		ScotCamp: v.ScotlandCamp, EngBonus: v.EnglandBonus, Traitor: -1,
		P: make([]player, n), rng: rand.NewChaCha8(key), lab: &labeling{set: set},
		BagOut: []int{}, Dag: []int{}, DagOut: []int{}, BagBox: []int{}, DagBox: []int{},
		UnitFloor: v.UnitFloor,
	}
	s.Opt.Cards = nil
	if v.Army != nil {
		i, ok := set.armyByID[v.Army.ID]
		if !ok {
			return nil, errCustomCards
		}
		s.Army = i
	}
	if v.Battle != nil {
		s.Revealed, s.ScotForce, s.EngForce = true, v.Battle.Scotland, v.Battle.England
		s.Won = slices.Index(sideNames[:], v.Battle.Winner)
	}
	if s.Phase == phStayActs {
		s.StayLeft = 3 - k.stayActs
	}
	if len(v.ToMove) == 0 || !slices.Contains(v.ToMove, me) {
		return nil, fmt.Errorf("bagpipes bot: seat %d is not to move", me)
	}
	switch s.Phase {
	case phActions, phBefore, phAwardCards:
		s.Turn, s.Step = me, (me-s.Badge+n)%n
		s.Replenished = s.Phase == phActions && !slices.ContainsFunc(v.LegalMoves, func(m Move) bool { return m.Type == MoveReplenish })
	}
	bag := func(id string) (int, error) {
		i, ok := set.bagByID[id]
		if !ok {
			return 0, errCustomCards
		}
		return i, nil
	}
	// Bagpipe cards: what is seen, then the unseen dealt at random.
	seenBag := make([]bool, len(set.Bagpipes))
	if s.Opt.ThreePlayer {
		for i, c := range set.Bagpipes {
			if MentionsBadge(c.Effects) {
				s.BagBox = append(s.BagBox, i)
				seenBag[i] = true
			}
		}
	}
	for q, pv := range v.Players {
		p := &s.P[q]
		*p = player{Gold: pv.Gold, Castle: pv.Castle, Camp: pv.Camp, Deserter: pv.Deserter, Prepared: -1,
			Hand: []int{}, Table: []int{}, TableRound: []int{}, Daggers: []int{}, DagHand: []int{}, Spent: []int{}}
		if pv.Side != "" {
			p.Side = slices.Index(sideNames[:], pv.Side)
		}
		for _, cv := range pv.Table {
			c, err := bag(cv.ID)
			if err != nil {
				return nil, err
			}
			seenBag[c] = true
			p.Table = append(p.Table, c)
			round := s.Round
			if cv.Ready {
				round--
			}
			p.TableRound = append(p.TableRound, round)
		}
		if q == me {
			for _, cv := range v.Hand {
				c, err := bag(cv.ID)
				if err != nil {
					return nil, err
				}
				seenBag[c] = true
				p.Hand = append(p.Hand, c)
				if cv.Fresh {
					p.Fresh++
				}
			}
		} else {
			p.Hand = make([]int, pv.HandCount)
			p.Fresh = min(k.fresh[q], pv.HandCount)
		}
	}
	var pool []int
	for i, seen := range seenBag {
		if !seen {
			pool = append(pool, i)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	need := v.Decks.Bagpipe + v.Decks.BagpipeDiscard
	for q := range n {
		if q != me {
			need += len(s.P[q].Hand)
		}
	}
	if need != len(pool) {
		return nil, fmt.Errorf("bagpipes bot: %d unseen bagpipe cards for %d places", len(pool), need)
	}
	for q := range n {
		if q != me {
			pool = pool[copy(s.P[q].Hand, pool):]
		}
	}
	s.Bag = append([]int{}, pool[:v.Decks.Bagpipe]...)
	s.BagOut = append(s.BagOut, pool[v.Decks.Bagpipe:]...)
	// Dagger cards.
	if err := k.sampleDaggers(s, v, r); err != nil {
		return nil, err
	}
	// Sides chosen but not shown, and (choices being simultaneous) the
	// sides of the others still to choose: the greedy player's choice,
	// which sees only what they may see, with a draw of its own. An
	// opponent thus never answers the bot's choice in the search.
	var guess []int
	for q, pv := range v.Players {
		if q != me && pv.Side == "" && (pv.Chosen || s.Phase == phChoice && s.fights(q)) {
			guess = append(guess, q)
		}
	}
	for _, q := range guess {
		england := s.greedyEngland(q, r.Float64())
		s.P[q].Side = sideScotland
		if england {
			s.P[q].Side = sideEngland
		}
		if p := &s.P[q]; n == 2 && !v.Players[q].Chosen && len(p.DagHand) > 0 {
			p.Prepared = p.DagHand[len(p.DagHand)-1] // the greedy player offers its biggest
			p.DagHand = p.DagHand[:len(p.DagHand)-1]
		}
	}
	// The army deck: the cards not revealed yet, King Edward last.
	if v.ArmyLeft > 0 {
		var rest []int
		for i, c := range set.EnglishArmy {
			if n == 2 && c.NoTwoPlayer || s.Opt.ThreePlayer && MentionsBadge(c.Effects) || k.armies[c.ID] {
				continue
			}
			rest = append(rest, len(set.KingEdward)+i)
		}
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		if len(rest) < v.ArmyLeft-1 {
			return nil, fmt.Errorf("bagpipes bot: %d army cards left, %d unseen", v.ArmyLeft, len(rest))
		}
		s.ArmyDeck = append([]int{r.IntN(len(set.KingEdward))}, rest[:v.ArmyLeft-1]...)
	} else {
		s.ArmyDeck = []int{}
	}
	return s, nil
}

// sampleDaggers deals the dagger cards: the seat's own as it sees them,
// the public ones of the 2-player game, the unseen at random.
func (k *knowledge) sampleDaggers(s *state, v *View, r *rand.Rand) error {
	n, me := s.N, k.seat
	byValue := map[int][]int{}
	for i, d := range s.Set.Daggers {
		byValue[d.Daggers] = append(byValue[d.Daggers], i)
	}
	take := func(val int) int {
		cs := byValue[val]
		if len(cs) == 0 {
			return -1
		}
		byValue[val] = cs[1:]
		return cs[0]
	}
	// daggers gives seat q the cards of the values shown, virtual ones
	// (2 daggers) for the last `virtual` and when no card is left.
	daggers := func(q int, vals []int, virtual int) {
		p := &s.P[q]
		for i, val := range vals {
			c := -1
			if i < len(vals)-virtual {
				c = take(val)
			}
			if c < 0 {
				p.Virtual++
				continue
			}
			p.Daggers = append(p.Daggers, c)
		}
	}
	mine := v.Players[me]
	daggers(me, mine.Daggers, k.virtual)
	if n == 2 {
		o := 1 - me
		for _, val := range mine.OfferDaggers {
			s.P[me].DagHand = append(s.P[me].DagHand, take(val))
		}
		if mine.Offered > 0 {
			s.P[me].Prepared = take(mine.Offered)
		}
		for q := range 2 {
			for _, val := range v.Players[q].Spent {
				if c := take(val); c >= 0 {
					s.P[q].Spent = append(s.P[q].Spent, c)
				}
			}
		}
		// The opponent's real 2-dagger cards came from offers; the other
		// 2s are virtual.
		ov := v.Players[o].Daggers
		twos := 0
		for _, val := range ov {
			if val == 2 {
				twos++
			}
		}
		virtualTwos := max(twos-k.took2[o], 0)
		var vals []int
		for _, val := range ov {
			if val == 2 && virtualTwos > 0 {
				virtualTwos--
				s.P[o].Virtual++
				continue
			}
			vals = append(vals, val)
		}
		daggers(o, vals, 0)
		// Its offer hand: what it was dealt, less what it has shown.
		hand := map[int]int{1: 2, 2: 3, 3: 2}
		for _, val := range k.offered[o] {
			hand[val]--
		}
		var left []int
		for val := 1; val <= 3; val++ {
			for range max(hand[val], 0) {
				left = append(left, val)
			}
		}
		r.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
		if v.Players[o].Chosen && len(left) > v.Players[o].OfferCards {
			s.P[o].Prepared = take(left[0])
			left = left[1:]
		}
		for _, val := range left[:min(len(left), v.Players[o].OfferCards)] {
			if c := take(val); c >= 0 {
				s.P[o].DagHand = append(s.P[o].DagHand, c)
			}
		}
		sortInts(s.P[o].DagHand)
		sortInts(s.P[me].DagHand)
		for val := 1; val <= 3; val++ {
			s.DagBox = append(s.DagBox, byValue[val]...)
		}
		return nil
	}
	var pool []int
	for val := 1; val <= 3; val++ {
		pool = append(pool, byValue[val]...)
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	deal := func(cnt int) []int {
		cnt = min(cnt, len(pool))
		out := append([]int{}, pool[:cnt]...)
		pool = pool[cnt:]
		return out
	}
	for q, pv := range v.Players {
		if q == me {
			continue
		}
		got := deal(pv.DaggerCards)
		s.P[q].Daggers = got
		s.P[q].Virtual = pv.DaggerCards - len(got)
	}
	s.Dag = deal(v.Decks.Dagger)
	s.DagOut = deal(v.Decks.DaggerDiscard)
	return nil
}
