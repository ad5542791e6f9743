package bagpipes

import (
	"math/rand/v2"
	"slices"

	"pbem/engine"
	"pbem/engine/i18n"
)

// Name is the game's identifier in the API.
const Name = "swords-and-bagpipes"

// RulesVersion names this implementation of the rules. bagpipes-2 (issue
// #16) filters the King Edward cards like the other English army cards
// and refuses side conditions on cards played before the reveal; both
// change only games with a custom card set, the default set deals and
// plays as under bagpipes-1. bagpipes-3 (issue #33) splits the crown among
// all the supporters of England, a deserter's share discarded, has a
// deserter who supported England draw its dagger card, and keeps the
// 2-player badge from going back to its giver the round after; events
// written under bagpipes-2 replay to the same states (an Awards event
// without "daggers", a BadgePassed without "round"). bagpipes-4 no longer
// offers a card's unit effect with no unit where the card would then do
// nothing for its player but spend itself or its gold (ruling 4); its
// events are those of bagpipes-3, and so are its states but for
// unit_floor, and a game begun before it keeps its plays of no unit.
const RulesVersion = "bagpipes-4"

// beforeUnitFloor are the versions before ruling 4 (state.UnitFloor).
var beforeUnitFloor = []string{"bagpipes-1", "bagpipes-2", "bagpipes-3"}

// Game is Swords and Bagpipes, for 2 to 6 players.
type Game struct{}

var _ engine.Game = Game{}

// Name returns "swords-and-bagpipes".
func (Game) Name() string { return Name }

// RulesVersion returns the version of these rules.
func (Game) RulesVersion() string { return RulesVersion }

// New deals a game: castles, the English army deck, the bagpipe and dagger
// decks, one bagpipe card each (more in some variants), and reveals the
// first army card. Errors: bad_options.
func (Game) New(su engine.Setup) (engine.State, error) {
	opt, cs, err := parseOptions(su.Options, su.Players, i18n.Norm(su.Language))
	if err != nil {
		return nil, err
	}
	n := su.Players
	s := &state{
		Set: cs, Opt: opt, N: n, Rounds: opt.rounds(), DefeatLimit: opt.defeatLimit(),
		Army: -1, BadgeFrom: -1, Stay: -1, StayFrom: -1, StayHome: -1, Traitor: -1,
		P:      make([]player, n),
		rng:    rand.NewChaCha8(su.Seed),
		BagOut: []int{}, DagOut: []int{}, BagBox: []int{}, DagBox: []int{},
		UnitFloor: !slices.Contains(beforeUnitFloor, su.Rules),
	}
	if len(opt.Cards) > 0 {
		s.Custom = cs
	}
	if len(su.Names) > 0 {
		s.Names = append([]string(nil), su.Names...)
	}
	if lang := i18n.Norm(su.Language); lang != "en" {
		s.Lang = lang
	}
	s.lab = &labeling{set: cs, names: s.Names, lang: i18n.Norm(s.Lang)}
	s.Opt.Cards = nil
	r := rand.New(s.rng)
	for i := range s.P {
		s.P[i] = player{Gold: 3, Castle: 3, Hand: []int{}, Table: []int{}, TableRound: []int{},
			Daggers: []int{}, DagHand: []int{}, Spent: []int{}, Prepared: -1}
	}
	// English army deck: one King Edward under the drawn army cards; the
	// same filters leave cards out of both (usableArmy).
	var kings, army []int
	for i := range cs.KingEdward {
		if usableArmy(&cs.KingEdward[i], n, opt) {
			kings = append(kings, i)
		}
	}
	for i := range cs.EnglishArmy {
		if usableArmy(&cs.EnglishArmy[i], n, opt) {
			army = append(army, len(cs.KingEdward)+i)
		}
	}
	r.Shuffle(len(army), func(i, j int) { army[i], army[j] = army[j], army[i] })
	s.ArmyDeck = append([]int{kings[r.IntN(len(kings))]}, army[:opt.rounds()-1]...)
	// Bagpipe deck (the 3-player variant leaves out the cards that mention
	// the badge: drawing one means discarding it and drawing again).
	s.Bag = []int{}
	for i, c := range cs.Bagpipes {
		if opt.ThreePlayer && MentionsBadge(c.Effects) {
			s.BagBox = append(s.BagBox, i)
		} else {
			s.Bag = append(s.Bag, i)
		}
	}
	s.shuffle(s.Bag)
	s.dealDaggers(r)
	if opt.StayHome {
		s.Stay = n - 1 // the youngest: the seat on the first player's right
	}
	deal := 1
	switch {
	case opt.Together:
		deal = 3
	case opt.ThreePlayer:
		deal = 2
	}
	for i := range s.P {
		s.giveBagpipes(i, deal, false, nil)
	}
	s.Phase = phInvasion
	s.run(s.auto())
	return s, nil
}

// dealDaggers builds the dagger deck, and the 2-player hands.
func (s *state) dealDaggers(r *rand.Rand) {
	byValue := map[int][]int{}
	for i, d := range s.Set.Daggers {
		byValue[d.Daggers] = append(byValue[d.Daggers], i)
	}
	take := func(v int) int {
		c := byValue[v][0]
		byValue[v] = byValue[v][1:]
		return c
	}
	if s.N == 2 {
		for i := range s.P {
			for v, k := range map[int]int{1: 2, 2: 3, 3: 2} {
				for range k {
					s.P[i].DagHand = append(s.P[i].DagHand, take(v))
				}
			}
			sortInts(s.P[i].DagHand)
		}
	}
	var top, mid []int
	if s.Opt.PreciseDaggers {
		for _, grp := range []*[]int{&top, &mid} {
			for v, k := range map[int]int{1: 1, 2: 2, 3: 2} {
				for range k {
					*grp = append(*grp, take(v))
				}
			}
			sortInts(*grp)
			r.Shuffle(len(*grp), func(i, j int) { (*grp)[i], (*grp)[j] = (*grp)[j], (*grp)[i] })
		}
	}
	var rest []int
	for v := 1; v <= 3; v++ {
		rest = append(rest, byValue[v]...)
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	if s.N == 2 {
		s.Dag, s.DagBox = []int{}, rest
		return
	}
	// The top of the deck is the end of the slice.
	s.Dag = append(append(append([]int{}, rest...), mid...), top...)
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// DecodeState reads a state written by json.Marshal.
func (Game) DecodeState(data []byte) (engine.State, error) {
	s, err := decodeState(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeMove parses a move; errors are bad_move.
func (Game) DecodeMove(data []byte) (engine.Move, error) {
	m, err := decodeMove(data)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// DecodeEvent reads a stored event.
func (Game) DecodeEvent(typ string, data []byte) (engine.Event, error) {
	return decodeEvent(typ, data)
}

// RoundEnd reports whether e is the end of a round (the end phase).
func (Game) RoundEnd(e engine.Event) bool { return e.EventType() == EvtRoundEnded }
