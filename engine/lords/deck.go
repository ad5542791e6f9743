package lords

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

//go:embed deck.csv
var deckCSV string

// Clan is one of the nine clans. Its JSON form is its name.
type Clan uint8

// The clans, in the order of their position in the rank formula. The zero
// Clan is "no clan" (no power attached).
const (
	noClan Clan = iota
	Scott
	Makgill
	MacDonnell
	Wemyss
	Fergusson
	Forsyth
	Cockburn
	Cochrane
	Bruce
)

// clanCount is one more than the last clan.
const clanCount = int(Bruce) + 1

// clanNames are the clans' names by Clan ("" for no clan).
func clanNames() [clanCount]string {
	return [clanCount]string{"", "Scott", "Makgill", "MacDonnell", "Wemyss", "Fergusson", "Forsyth", "Cockburn", "Cochrane", "Bruce"}
}

func (c Clan) String() string {
	if c != noClan && int(c) < clanCount {
		return clanNames()[c]
	}
	return "none"
}

// MarshalText writes the clan's name.
func (c Clan) MarshalText() ([]byte, error) {
	if int(c) >= clanCount {
		return []byte(""), nil
	}
	return []byte(clanNames()[c]), nil
}

// UnmarshalText reads a clan's name; "" is no clan.
func (c *Clan) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = noClan
		return nil
	}
	cl, ok := clanByName(string(b))
	if !ok {
		return fmt.Errorf("unknown clan %q", b)
	}
	*c = cl
	return nil
}

func clanByName(name string) (Clan, bool) {
	for i, n := range clanNames() {
		if i > 0 && strings.EqualFold(n, name) {
			return Clan(i), true
		}
	}
	return noClan, false
}

// targeted reports whether the clan's immediate power needs a target.
func (c Clan) targeted() bool { return c == Fergusson || c == Wemyss || c == Cockburn }

// cardInfo is what is printed on a card.
type cardInfo struct {
	clan     Clan
	strength int
	name     string // "Clan strength", as labels name the card
}

// deck is the printed card set, read from deck.csv: rank → clan and
// strength. It is immutable once built.
type deck struct {
	info  []cardInfo // by rank; strength 0 = no such card
	all   []int      // every rank, ascending
	bruce []int      // the Bruce ranks (left out unless the option is on)
}

// parseDeck reads the deck CSV: a header "rank,clan,strength", then one card
// a line. Ranks must be unique and positive.
func parseDeck(text string) (*deck, error) {
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("deck: %w", err)
	}
	if len(rows) < 2 || strings.Join(rows[0], ",") != "rank,clan,strength" {
		return nil, fmt.Errorf("deck: want header rank,clan,strength")
	}
	d := &deck{}
	for i, row := range rows[1:] {
		rank, err1 := strconv.Atoi(strings.TrimSpace(row[0]))
		str, err2 := strconv.Atoi(strings.TrimSpace(row[2]))
		cl, ok := clanByName(strings.TrimSpace(row[1]))
		if err1 != nil || err2 != nil || !ok || rank <= 0 || rank > 1000 || str <= 0 {
			return nil, fmt.Errorf("deck: bad line %d: %v", i+2, row)
		}
		for len(d.info) <= rank {
			d.info = append(d.info, cardInfo{})
		}
		if d.info[rank].strength != 0 {
			return nil, fmt.Errorf("deck: rank %d twice", rank)
		}
		d.info[rank] = cardInfo{clan: cl, strength: str, name: fmt.Sprintf("%s %d", cl, str)}
	}
	for r, ci := range d.info {
		if ci.strength == 0 {
			continue
		}
		d.all = append(d.all, r)
		if ci.clan == Bruce {
			d.bruce = append(d.bruce, r)
		}
	}
	return d, nil
}

func (d *deck) valid(rank int) bool {
	return rank > 0 && rank < len(d.info) && d.info[rank].strength > 0
}

func (d *deck) clan(rank int) Clan    { return d.info[rank].clan }
func (d *deck) strength(rank int) int { return d.info[rank].strength }
