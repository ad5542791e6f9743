package bagpipes

import (
	"encoding/json"
	"math/rand/v2"

	"pbem/engine"
	"pbem/engine/i18n"
)

// The phases of the state machine. Some wait for a decision, the others
// (invasion, battle, awards, end) resolve at once inside Decide.
const (
	phInvasion   = "invasion"
	phActions    = "actions"
	phBadge      = "badge_of_honour"
	phStayGive   = "stay_home"
	phStayActs   = "stay_home_replenishment"
	phChoice     = "choice"
	phBefore     = "before_reveal"
	phBadge2     = "badge_of_honour_2p"
	phBattle     = "battle"
	phAwards     = "awards"
	phAwardCards = "award_cards"
	phEnd        = "end"
	phOver       = "over"
)

// Sides a player supports in a round.
const (
	sideNone     = 0
	sideScotland = 1
	sideEngland  = 2
)

var sideNames = [...]string{"", "scotland", "england"}

// player is one seat's holdings.
type player struct {
	Gold   int `json:"gold"`
	Castle int `json:"castle"`
	Camp   int `json:"camp"`
	// Hand holds bagpipe cards; its last Fresh cards were received in this
	// round's awards phase and may not be played in it.
	Hand  []int `json:"hand"`
	Fresh int   `json:"fresh"`
	// Table holds "x2" cards played once, face up, with the round of play.
	Table      []int `json:"table"`
	TableRound []int `json:"table_round"`
	// Daggers holds the dagger cards that count against the player;
	// Virtual counts the virtual 2-dagger cards.
	Daggers []int `json:"daggers"`
	Virtual int   `json:"virtual"`
	// DagHand (2 players) holds the dagger cards still to offer; Spent the
	// cards offered by the opponent and discarded (public).
	DagHand  []int `json:"dagger_hand"`
	Spent    []int `json:"spent"`
	Side     int   `json:"side"`
	Prepared int   `json:"prepared"`
	Deserter bool  `json:"deserter"`
}

// state is the whole game. Its exported fields are its JSON form.
type state struct {
	Set *CardSet `json:"-"`
	// Custom is the card set when the game's creator supplied one (the
	// default set is not repeated in every state).
	Custom *CardSet `json:"custom_cards,omitempty"`
	Opt    Options  `json:"options"`
	N      int      `json:"players"`
	// Names and Lang are the setup's players' names and language, for the
	// move labels, card texts and result summary (absent in states written
	// before them: neutral names, English).
	Names []string `json:"names,omitempty"`
	Lang  string   `json:"language,omitempty"`
	// UnitFloor is ruling 4 (bagpipes-4): a card whose other effects do
	// nothing for its player at no unit asks at least one (cardParams).
	// False in a game created under an earlier version, whose states were
	// written without it: its plays of no unit stay legal, so that its
	// audit finds them among the legal decisions.
	UnitFloor bool   `json:"unit_floor,omitempty"`
	Round     int    `json:"round"`
	Rounds    int    `json:"rounds"`
	Phase     string `json:"phase"`

	ArmyDeck []int `json:"army_deck"` // top is last
	Army     int   `json:"army"`
	Bag      []int `json:"bagpipe_deck"`
	BagOut   []int `json:"bagpipe_discard"`
	Dag      []int `json:"dagger_deck"`
	DagOut   []int `json:"dagger_discard"`
	// Box holds the cards out of this game: the bagpipe cards that mention
	// the badge (3-player variant) and the dagger cards not dealt in the
	// 2-player game, which plays without a dagger deck.
	BagBox []int `json:"bagpipe_box"`
	DagBox []int `json:"dagger_box"`

	Badge     int `json:"badge"`
	BadgeFrom int `json:"badge_from"`
	// BadgeRound is the round of the last 2-player pass of the badge (0:
	// none known), for the no-return rule.
	BadgeRound int `json:"badge_round,omitempty"`
	Stay       int `json:"stay_token"` // holder of the Stay Home! token, -1 without it
	StayFrom   int `json:"stay_from"`
	StayHome   int `json:"staying_home"` // the seat staying home this round, -1
	StayLeft   int `json:"stay_left"`

	Turn        int  `json:"turn"`
	Step        int  `json:"step"`
	Replenished bool `json:"replenished"`

	Defeats     int  `json:"defeats"`
	DefeatLimit int  `json:"defeat_limit"`
	ScotCamp    int  `json:"scotland_camp"`
	EngBonus    int  `json:"england_bonus"`
	Revealed    bool `json:"revealed"`
	Won         int  `json:"won"`
	ScotForce   int  `json:"scotland_strength"`
	EngForce    int  `json:"england_strength"`

	P       []player       `json:"seats"`
	Traitor int            `json:"traitor"`
	Res     *engine.Result `json:"result"`
	RNG     []byte         `json:"rng"`
	rng     *rand.ChaCha8
	lab     *labeling // shared by clones and listed moves; never changed
}

var _ engine.State = (*state)(nil)

func (s *state) next(seat int) int { return (seat + 1) % s.N }

// bound tells whether seat must support Scotland (the badge holder, except
// in the 2-player game and the 3-player variant).
func (s *state) bound(seat int) bool {
	return seat == s.Badge && s.N >= 3 && !s.Opt.ThreePlayer
}

// fights tells whether seat takes part in this round's battle.
func (s *state) fights(seat int) bool { return seat != s.StayHome }

func (s *state) army() *ArmyCard { return &s.Set.armies[s.Army] }

// shield is the current army card's shield in this game.
func (s *state) shield() int { return s.army().ShieldFor(Choosers(s.N, s.Opt)) }

// daggerTotal counts seat's daggers, virtual cards included.
func (s *state) daggerTotal(seat int) int {
	t := 2 * s.P[seat].Virtual
	for _, d := range s.P[seat].Daggers {
		t += s.Set.Daggers[d].Daggers
	}
	return t
}

func (s *state) shuffle(cards []int) {
	rand.New(s.rng).Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
}

// drawBag draws a bagpipe card, reshuffling the discards if needed; -1 if
// every card is in the players' hands.
func (s *state) drawBag() int {
	if len(s.Bag) == 0 {
		if len(s.BagOut) == 0 {
			return -1
		}
		s.Bag, s.BagOut = s.BagOut, []int{}
		s.shuffle(s.Bag)
	}
	c := s.Bag[len(s.Bag)-1]
	s.Bag = s.Bag[:len(s.Bag)-1]
	return c
}

// drawDag draws a dagger card likewise; -1 means a virtual 2-dagger card
// (always so in the 2-player game, which has no dagger deck).
func (s *state) drawDag() int {
	if s.N == 2 {
		return -1
	}
	if len(s.Dag) == 0 {
		if len(s.DagOut) == 0 {
			return -1
		}
		s.Dag, s.DagOut = s.DagOut, []int{}
		s.shuffle(s.Dag)
	}
	c := s.Dag[len(s.Dag)-1]
	s.Dag = s.Dag[:len(s.Dag)-1]
	return c
}

func (s *state) Players() int { return s.N }

func (s *state) Result() *engine.Result { return s.Res }

// Clone returns a deep copy; the card set is shared (it never changes).
func (s *state) Clone() engine.State { return s.clone() }

func (s *state) clone() *state {
	c := *s
	// One backing array for every slice; each sub-slice is capped so that
	// an append reallocates instead of overwriting its neighbour.
	total := len(s.ArmyDeck) + len(s.Bag) + len(s.BagOut) + len(s.Dag) + len(s.DagOut) + len(s.BagBox) + len(s.DagBox)
	for i := range s.P {
		p := &s.P[i]
		total += len(p.Hand) + len(p.Table) + len(p.TableRound) + len(p.Daggers) + len(p.DagHand) + len(p.Spent)
	}
	buf := make([]int, 0, total)
	cp := func(a []int) []int {
		start := len(buf)
		buf = append(buf, a...)
		return buf[start:len(buf):len(buf)]
	}
	c.ArmyDeck, c.Bag, c.BagOut, c.Dag, c.DagOut = cp(s.ArmyDeck), cp(s.Bag), cp(s.BagOut), cp(s.Dag), cp(s.DagOut)
	c.BagBox, c.DagBox = cp(s.BagBox), cp(s.DagBox)
	c.RNG = nil
	c.P = make([]player, len(s.P))
	for i, p := range s.P {
		p.Hand, p.Table, p.TableRound = cp(p.Hand), cp(p.Table), cp(p.TableRound)
		p.Daggers, p.DagHand, p.Spent = cp(p.Daggers), cp(p.DagHand), cp(p.Spent)
		c.P[i] = p
	}
	r := *s.rng
	c.rng = &r
	if s.Res != nil {
		res := *s.Res
		res.Ranking = make([]engine.Standing, len(s.Res.Ranking))
		for i, sd := range s.Res.Ranking {
			d := make(map[string]int, len(sd.Detail))
			for k, v := range sd.Detail {
				d[k] = v
			}
			sd.Detail = d
			res.Ranking[i] = sd
		}
		c.Res = &res
	}
	return &c
}

type stateJSON state

// MarshalJSON writes the state with its PRNG.
func (s *state) MarshalJSON() ([]byte, error) {
	b, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := *s
	c.RNG = b
	return json.Marshal((*stateJSON)(&c))
}

func decodeState(data []byte) (*state, error) {
	var s state
	if err := json.Unmarshal(data, (*stateJSON)(&s)); err != nil {
		return nil, err
	}
	if s.N < 2 || s.N > 6 || len(s.P) != s.N {
		return nil, engine.Errorf(engine.CodeBadOptions, "state: not a swords-and-bagpipes state")
	}
	s.Set = DefaultCards()
	if s.Custom != nil {
		if e := s.Custom.validate(); e != nil {
			return nil, e.ruleError("en")
		}
		s.Custom.index()
		s.Set = s.Custom
	}
	s.rng = &rand.ChaCha8{}
	if err := s.rng.UnmarshalBinary(s.RNG); err != nil {
		return nil, err
	}
	s.RNG = nil
	s.lab = &labeling{set: s.Set, names: s.Names, lang: i18n.Norm(s.Lang)}
	for i := range s.P {
		p := &s.P[i]
		for _, f := range []*[]int{&p.Hand, &p.Table, &p.TableRound, &p.Daggers, &p.DagHand, &p.Spent} {
			if *f == nil {
				*f = []int{}
			}
		}
	}
	for _, f := range []*[]int{&s.ArmyDeck, &s.Bag, &s.BagOut, &s.Dag, &s.DagOut, &s.BagBox, &s.DagBox} {
		if *f == nil {
			*f = []int{}
		}
	}
	return &s, nil
}
