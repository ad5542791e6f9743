package bagpipes

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"pbem/engine"
	"pbem/engine/i18n"
)

//go:embed cards.json
var defaultCardsJSON []byte

// The phases in which a bagpipe card may be played (the symbol at the
// bottom of the card).
const (
	PhaseActions      = "actions"       // on your turn, in the actions phase
	PhaseBeforeReveal = "before_reveal" // after all choices, before the reveal
	PhaseAwards       = "awards"        // in the awards phase
)

// Effect kinds: the vocabulary of card symbols the engine interprets.
const (
	KindGold          = "gold"           // gain Amount gold
	KindLoseGold      = "lose_gold"      // lose Amount gold (the player who played it: a cost that must be payable)
	KindCastleUnits   = "castle_units"   // add up to Amount units to the castle
	KindCampUnits     = "camp_units"     // add up to Amount units to the camp
	KindRelocate      = "relocate"       // move up to Amount units from castle to camp
	KindWithdraw      = "withdraw"       // move up to Amount units from camp back to castle
	KindLoseUnits     = "lose_units"     // discard up to Amount units from the camp
	KindMilitia       = "militia"        // raise militia Amount times
	KindScotlandUnits = "scotland_units" // add Amount units to Scotland's camp
	KindEnglandUnits  = "england_units"  // add Amount to England's strength this round
	KindBagpipe       = "bagpipe"        // draw Amount bagpipe cards
	KindDagger        = "dagger"         // draw Amount dagger cards
	KindDiscardDagger = "discard_dagger" // discard Amount of your dagger cards (the highest first)
	KindSwitch        = "switch"         // take back your choice token and play the other one
)

// Who an effect applies to.
const (
	WhoSelf    = "self"    // the player who played the card (the default)
	WhoTarget  = "target"  // another player, chosen when the card is played
	WhoOthers  = "others"  // every other player
	WhoAll     = "all"     // every player
	WhoScots   = "scots"   // every supporter of Scotland (awards phase only)
	WhoEnglish = "english" // every supporter of England (awards phase only)
	WhoBadge   = "badge"   // the holder of the badge of honour
)

// Conditions under which an effect applies.
const (
	IfScotlandWon       = "scotland_won"
	IfEnglandWon        = "england_won"
	IfSupportedScotland = "supported_scotland"
	IfSupportedEngland  = "supported_england"
	IfBadge             = "badge" // the player holds the badge of honour
)

// Effect is one symbol of a card: a kind, an amount, to whom and when.
type Effect struct {
	Kind   string `json:"kind"`
	Amount int    `json:"amount,omitempty"`
	Who    string `json:"who,omitempty"`
	If     string `json:"if,omitempty"`
}

// BagpipeCard is a card players hold and play in the phase of its symbol.
type BagpipeCard struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Phase   string   `json:"phase"`
	X2      bool     `json:"x2,omitempty"`
	Effects []Effect `json:"effects"`
}

// ArmyCard is an English Army or King Edward card: the invading troops
// (shield), the rewards under the intact beret (Scotland won), the pierced
// beret (England won) and the crown (England's supporters), and an optional
// special effect applied when the card is revealed.
type ArmyCard struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Shield      int    `json:"shield"`
	ScotlandWon int    `json:"scotland_won"`
	EnglandWon  int    `json:"england_won"`
	Crown       int    `json:"crown"`
	// Generous: the crown coin has no split symbol, so each supporter of
	// England gets the whole crown amount.
	Generous bool     `json:"generous,omitempty"`
	Effects  []Effect `json:"effects,omitempty"`
	// NoTwoPlayer removes the card from 2-player games.
	NoTwoPlayer bool `json:"no_two_player,omitempty"`
	// ShieldByChoosers replaces Shield according to how many players
	// choose a side each round, "2" to "4" (see Choosers). A design choice
	// of the default set, which printed cards (one shield for every
	// player count) cannot make: see doc.go.
	ShieldByChoosers map[string]int `json:"shield_by_choosers,omitempty"`
}

// Choosers is how many players choose a side each round in a game of
// players with these options: those who fight (all but the one staying
// home when the Stay Home! token is in play), less the badge holder when
// the badge binds them to Scotland (3 or more players, except in the
// 3-player variant). 2 players: 2; 3: 2 (3 in the 3-player variant); 4: 3;
// 5: 4 (3 with Stay Home!); 6: 4.
func Choosers(players int, o Options) int {
	n := players
	if o.StayHome || players == 6 {
		n--
	}
	if players >= 3 && !o.ThreePlayer {
		n--
	}
	return n
}

// ShieldFor is the card's shield when choosers players choose a side each
// round.
func (c *ArmyCard) ShieldFor(choosers int) int {
	if v, ok := c.ShieldByChoosers[strconv.Itoa(choosers)]; ok {
		return v
	}
	return c.Shield
}

// DaggerCard is a card of treason showing one to three daggers.
type DaggerCard struct {
	ID      string `json:"id"`
	Daggers int    `json:"daggers"`
}

// CardSet is the whole set of cards a game is played with.
type CardSet struct {
	KingEdward  []ArmyCard    `json:"king_edward"`
	EnglishArmy []ArmyCard    `json:"english_army"`
	Daggers     []DaggerCard  `json:"daggers"`
	Bagpipes    []BagpipeCard `json:"bagpipes"`

	bagByID  map[string]int
	armies   []ArmyCard // KingEdward then EnglishArmy
	armyByID map[string]int
	dagByIDs map[string]int
	// texts and armyTexts hold the cards' texts by language (every one of
	// i18n.Languages), then by card, written once when the set is indexed.
	texts     map[string][]string
	armyTexts map[string][]string
}

// bagName is the name of bagpipe card c in lang (see cardName).
func (cs *CardSet) bagName(c int, lang string) string {
	return cardName(lang, cs.Bagpipes[c].ID, cs.Bagpipes[c].Name)
}

// armyName is the name of army card a (King Edward first) in lang.
func (cs *CardSet) armyName(a int, lang string) string {
	return cardName(lang, cs.armies[a].ID, cs.armies[a].Name)
}

// dagByID is the index of a dagger card, -1 if unknown.
func (cs *CardSet) dagByID(id string) int {
	if i, ok := cs.dagByIDs[id]; ok {
		return i
	}
	return -1
}

// defaultCards parses the embedded set once; the set is never modified.
var defaultCards = sync.OnceValues(func() (*CardSet, error) { return ParseCards(defaultCardsJSON) })

// DefaultCards returns the embedded default card set. It must not be
// modified.
func DefaultCards() *CardSet {
	cs, err := defaultCards()
	if err != nil {
		panic("bagpipes: embedded cards.json is invalid: " + err.Error())
	}
	return cs
}

// DefaultCardsJSON returns the embedded default card file, a starting
// point for a custom set.
func DefaultCardsJSON() []byte { return append([]byte(nil), defaultCardsJSON...) }

// ParseCards reads and validates a card set. Errors are *engine.RuleError
// with code bad_options naming the card (list, index and name) and the
// field, in English.
func ParseCards(data []byte) (*CardSet, error) { return ParseCardsIn(data, "en") }

// ParseCardsIn is ParseCards with its errors in lang ("en", "fr", "it";
// English otherwise).
func ParseCardsIn(data []byte, lang string) (*CardSet, error) {
	cs, e := decodeCardSet(data)
	if e == nil {
		e = cs.validate()
	}
	if e != nil {
		return nil, e.ruleError(lang)
	}
	cs.index()
	return cs, nil
}

func (cs *CardSet) index() {
	cs.bagByID = make(map[string]int, len(cs.Bagpipes))
	for i, c := range cs.Bagpipes {
		cs.bagByID[c.ID] = i
	}
	cs.dagByIDs = make(map[string]int, len(cs.Daggers))
	for i, c := range cs.Daggers {
		cs.dagByIDs[c.ID] = i
	}
	cs.armies = append(append([]ArmyCard{}, cs.KingEdward...), cs.EnglishArmy...)
	cs.armyByID = make(map[string]int, len(cs.armies))
	for i, c := range cs.armies {
		cs.armyByID[c.ID] = i
	}
	cs.texts, cs.armyTexts = map[string][]string{}, map[string][]string{}
	for _, lang := range i18n.Languages {
		cs.texts[lang] = make([]string, len(cs.Bagpipes))
		for i, c := range cs.Bagpipes {
			cs.texts[lang][i] = effectsText(c.Effects, lang)
		}
		cs.armyTexts[lang] = make([]string, len(cs.armies))
		for i, c := range cs.armies {
			cs.armyTexts[lang][i] = effectsText(c.Effects, lang)
		}
	}
}

// nameOr is a card's name, else its id.
func nameOr(name, id string) string {
	if name != "" {
		return name
	}
	return id
}

// MaxCardName is the longest name of a card of a custom set, in
// characters (the longest of the rulebook's has 32).
const MaxCardName = 60

// validate checks the rules' limits on every card; the first fault is
// returned. A card's name is one line of at most MaxCardName characters,
// without control, text-direction or invisible characters (engine.PlainName).
func (cs *CardSet) validate() *setupError {
	if len(cs.KingEdward) == 0 {
		return cardError("king_edward", -1, "", "", "need_king")
	}
	if len(cs.Daggers) == 0 {
		return cardError("daggers", -1, "", "", "need_dag")
	}
	ids := map[string]bool{}
	checkID := func(list string, i int, name, id string) *setupError {
		if id == "" {
			return cardError(list, i, name, "id", "missing")
		}
		if ids[id] {
			return cardError(list, i, nameOr(name, id), "id", "twice", id)
		}
		ids[id] = true
		return nil
	}
	for _, list := range []struct {
		kind  string
		cards []ArmyCard
	}{{"king_edward", cs.KingEdward}, {"english_army", cs.EnglishArmy}} {
		for i, c := range list.cards {
			bad := func(field, key string, args ...any) *setupError {
				return cardError(list.kind, i, nameOr(c.Name, c.ID), field, key, args...)
			}
			if err := checkID(list.kind, i, c.Name, c.ID); err != nil {
				return err
			}
			if c.Name == "" {
				return bad("name", "missing")
			}
			if !engine.PlainName(c.Name, MaxCardName) { // named by its id: the name is what is wrong
				return cardError(list.kind, i, c.ID, "name", "name", MaxCardName)
			}
			for _, f := range []struct {
				name string
				v    int
			}{{"shield", c.Shield}, {"scotland_won", c.ScotlandWon}, {"england_won", c.EnglandWon}, {"crown", c.Crown}} {
				if f.v < 0 || f.v > 99 {
					return bad(f.name, "range", f.v, 0, 99)
				}
			}
			keys := make([]string, 0, len(c.ShieldByChoosers))
			for k := range c.ShieldByChoosers {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				v := c.ShieldByChoosers[k]
				if f, err := strconv.Atoi(k); err != nil || f < 2 || f > 4 || strconv.Itoa(f) != k {
					return bad("shield_by_choosers", "chooser_key", k)
				}
				if v < 0 || v > 99 {
					return bad("shield_by_choosers."+k, "range", v, 0, 99)
				}
			}
			for j, e := range c.Effects {
				if field, key, args := validateEffect(j, e, ""); key != "" {
					return bad(field, key, args...)
				}
			}
		}
	}
	for i, c := range cs.Daggers {
		if err := checkID("daggers", i, "", c.ID); err != nil {
			return err
		}
		if c.Daggers < 1 || c.Daggers > 3 {
			return cardError("daggers", i, c.ID, "daggers", "daggers", c.Daggers)
		}
	}
	for i, c := range cs.Bagpipes {
		bad := func(field, key string, args ...any) *setupError {
			return cardError("bagpipes", i, nameOr(c.Name, c.ID), field, key, args...)
		}
		if err := checkID("bagpipes", i, c.Name, c.ID); err != nil {
			return err
		}
		if c.Name == "" {
			return bad("name", "missing")
		}
		if !engine.PlainName(c.Name, MaxCardName) { // named by its id: the name is what is wrong
			return cardError("bagpipes", i, c.ID, "name", "name", MaxCardName)
		}
		switch c.Phase {
		case PhaseActions, PhaseBeforeReveal, PhaseAwards:
		default:
			return bad("phase", "phase", c.Phase)
		}
		if len(c.Effects) == 0 {
			return bad("effects", "no_effect")
		}
		variable := 0
		for j, e := range c.Effects {
			if field, key, args := validateEffect(j, e, c.Phase); key != "" {
				return bad(field, key, args...)
			}
			if isVariable(e) {
				variable++
			}
		}
		if variable > 1 {
			return bad("effects", "one_variable")
		}
	}
	return nil
}

// isVariable tells whether the player chooses how many units (0..Amount).
func isVariable(e Effect) bool {
	if e.Who != "" && e.Who != WhoSelf {
		return false
	}
	switch e.Kind {
	case KindCastleUnits, KindCampUnits, KindRelocate, KindWithdraw:
		return true
	}
	return false
}

// validateEffect checks effect j of a card; phase is "" for an army card.
// It returns the faulty field, the message key and its arguments (key ""
// when the effect is sound).
func validateEffect(j int, e Effect, phase string) (field, key string, args []any) {
	at := func(f string) string { return fmt.Sprintf("effects[%d].%s", j, f) }
	army := phase == ""
	switch e.Kind {
	case KindGold, KindLoseGold, KindCastleUnits, KindCampUnits, KindLoseUnits, KindMilitia, KindScotlandUnits, KindEnglandUnits:
	case KindRelocate, KindWithdraw, KindBagpipe, KindDagger, KindDiscardDagger:
		if army {
			return at("kind"), "kind_army", []any{e.Kind}
		}
	case KindSwitch:
		if phase != PhaseBeforeReveal {
			return at("kind"), "switch_phase", nil
		}
		if e.Who != "" && e.Who != WhoSelf {
			return at("who"), "switch_who", nil
		}
		return "", "", nil
	default:
		return at("kind"), "unknown_val", []any{e.Kind}
	}
	if e.Amount < 1 || e.Amount > 20 {
		return at("amount"), "range", []any{e.Amount, 1, 20}
	}
	switch e.Who {
	case "", WhoSelf, WhoTarget, WhoOthers, WhoAll, WhoBadge:
		if army && (e.Who == "" || e.Who == WhoSelf || e.Who == WhoTarget || e.Who == WhoOthers) &&
			e.Kind != KindMilitia && e.Kind != KindScotlandUnits && e.Kind != KindEnglandUnits {
			return at("who"), "army_who", nil
		}
	case WhoScots, WhoEnglish:
		if phase != PhaseAwards {
			return at("who"), "awards_only", []any{e.Who}
		}
	default:
		return at("who"), "unknown_val", []any{e.Who}
	}
	if (e.Kind == KindMilitia || e.Kind == KindScotlandUnits || e.Kind == KindEnglandUnits) && e.Who != "" && e.Who != WhoSelf {
		return at("who"), "table_who", []any{e.Kind}
	}
	switch e.If {
	case "", IfBadge:
	case IfScotlandWon, IfEnglandWon:
		if phase != PhaseAwards {
			return at("if"), "awards_only", []any{e.If}
		}
	case IfSupportedScotland, IfSupportedEngland:
		// Before the reveal the sides are secret: an effect that happens
		// or not according to the player's side would show it (finding 3
		// of issue #16, see doc.go, Rulings).
		if phase != PhaseAwards {
			return at("if"), "secret_side", []any{e.If}
		}
	default:
		return at("if"), "unknown_val", []any{e.If}
	}
	if army && e.If != "" {
		return at("if"), "army_if", nil
	}
	return "", "", nil
}

// MentionsBadge tells whether an effect list refers to the badge of honour
// (such cards are left out of the 3-player variant).
func MentionsBadge(effects []Effect) bool {
	for _, e := range effects {
		if e.Who == WhoBadge || e.If == IfBadge {
			return true
		}
	}
	return false
}

// Text is the card's effects in English, built from its symbols.
func (c BagpipeCard) Text() string { return effectsText(c.Effects, "en") }

// TextIn is the card's effects in lang ("en", "fr", "it"; English
// otherwise).
func (c BagpipeCard) TextIn(lang string) string { return effectsText(c.Effects, i18n.Norm(lang)) }

// NameIn is the card's name in lang: the rulebook's for a card of the
// default set, else the name its card set gives.
func (c BagpipeCard) NameIn(lang string) string { return cardName(i18n.Norm(lang), c.ID, c.Name) }

// Text is the army card's special effect in English ("" if none).
func (c ArmyCard) Text() string { return effectsText(c.Effects, "en") }

// TextIn is the army card's special effect in lang ("" if none).
func (c ArmyCard) TextIn(lang string) string { return effectsText(c.Effects, i18n.Norm(lang)) }
