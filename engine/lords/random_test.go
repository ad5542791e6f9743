package lords

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

func newGame(tb testing.TB) *Game {
	tb.Helper()
	g, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func seedOf(i uint64) engine.Seed {
	var s engine.Seed
	binary.LittleEndian.PutUint64(s[:], i*0x9e3779b97f4a7c15+1)
	binary.LittleEndian.PutUint64(s[8:], i)
	return s
}

// randomSetup spreads games over 2–5 players, with and without Bruce.
func randomSetup(i int) engine.Setup {
	opts := `{"bruce":false}`
	if i%2 == 1 {
		opts = `{"bruce":true}`
	}
	su := engine.Setup{Players: 2 + (i/2)%4, Options: json.RawMessage(opts), Seed: seedOf(uint64(i))}
	// Labels in every language, with names or the neutral fallback.
	su.Language = []string{"en", "fr", "it", ""}[i%4]
	if i%3 != 0 {
		su.Names = []string{"Ann", "Bob", "Cid", "Dan", "Eve"}[:su.Players]
	}
	return su
}

func TestRandomGames(t *testing.T) {
	g := newGame(t)
	stats := enginetest.RandomGames(t, g, enginetest.Options{
		Games:         randomGames,
		Bots:          true,
		Setup:         randomSetup,
		DeepEvery:     400,
		Workers:       runtime.GOMAXPROCS(0),
		Invariant:     func(st engine.State) error { return st.(*State).checkCards() },
		CheckView:     checkView,
		CheckRedacted: checkRedacted,
		Plant: func(st engine.State, seat, k int) (engine.State, bool) {
			return plantMarker(st.(*State), seat, k)
		},
	})
	t.Logf("%+v", stats)
	if stats.Games != randomGames || stats.Rejected == 0 {
		t.Fatalf("stats %+v", stats)
	}
	// The deep games meet these kinds; the rarer ones are pinned by
	// explain_test.go.
	for _, kind := range []string{ExplainPowerBlocked, ExplainPowerUseless, ExplainRoundScore, ExplainRoundTie} {
		if stats.Explained[kind] == 0 {
			t.Errorf("no %s explanation checked: %v", kind, stats.Explained)
		}
	}
}

// visible is the set of cards seat may see in s.
func visible(s *State, seat int) map[int]bool {
	v := map[int]bool{}
	if seat >= 0 && seat < s.N {
		for _, c := range s.Hands[seat] {
			v[c] = true
		}
	}
	for _, army := range s.Armies {
		for _, f := range army {
			if f.FaceUp || f.knownBy(seat) {
				v[f.Card] = true
			}
		}
	}
	for _, r := range s.Recruits {
		if r.FaceUp && r.Card != 0 {
			v[r.Card] = true
		}
	}
	for _, pile := range [][]int{s.Supporters, s.Discard} {
		for _, c := range pile {
			v[c] = true
		}
	}
	for _, cl := range s.Claimed {
		for _, c := range cl {
			v[c] = true
		}
	}
	return v
}

// cardsIn collects the numbers under the given keys anywhere in the JSON.
func cardsIn(raw []byte, keys map[string]bool) ([]int, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	var out []int
	var walk func(v any, take bool)
	walk = func(v any, take bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k != "last_round" { // public history: cards shown at the last scoring
					walk(x, keys[k])
				}
			}
		case []any:
			for _, x := range v {
				walk(x, take)
			}
		case float64:
			if take {
				out = append(out, int(v))
			}
		}
	}
	walk(v, false)
	return out, nil
}

func checkView(st engine.State, seat int, raw []byte) error {
	s := st.(*State)
	vis := visible(s, seat)
	cards, err := cardsIn(raw, map[string]bool{"rank": true, "card": true, "cards": true})
	if err != nil {
		return err
	}
	for _, c := range cards {
		if !vis[c] {
			return fmt.Errorf("view shows card %d", c)
		}
	}
	var v struct {
		Hand       []json.RawMessage `json:"hand"`
		LegalMoves []json.RawMessage `json:"legal_moves"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	if seat >= 0 && len(v.Hand) != len(s.Hands[seat]) {
		return fmt.Errorf("view hand has %d cards, want %d", len(v.Hand), len(s.Hands[seat]))
	}
	if len(v.LegalMoves) != len(s.Legal(seat)) {
		return fmt.Errorf("view lists %d moves, Legal %d", len(v.LegalMoves), len(s.Legal(seat)))
	}
	return checkNamedCards(s, seat, raw)
}

// cardName matches a card as labels and texts name it ("Makgill 7").
var cardName = regexp.MustCompile(`\b(Scott|Makgill|MacDonnell|Wemyss|Fergusson|Forsyth|Cockburn|Cochrane|Bruce) (\d+)\b`)

// checkNamedCards checks that every card named in the view's texts (move
// labels, the pending decision) is one seat may see: a clan and strength
// of a visible card.
func checkNamedCards(s *State, seat int, raw []byte) error {
	seen := map[string]bool{}
	for c := range visible(s, seat) {
		seen[s.d.cardName(c, "en")] = true
	}
	var v struct {
		LegalMoves []struct {
			Label string `json:"label"`
		} `json:"legal_moves"`
		Pending *struct {
			Text string `json:"text"`
		} `json:"pending"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	texts := make([]string, 0, len(v.LegalMoves)+1)
	for _, m := range v.LegalMoves {
		if m.Label == "" {
			return fmt.Errorf("a legal move without label")
		}
		texts = append(texts, m.Label)
	}
	if v.Pending != nil {
		texts = append(texts, v.Pending.Text)
	}
	for _, t := range texts {
		for _, name := range cardName.FindAllString(t, -1) {
			if !seen[name] {
				return fmt.Errorf("%q names %s, which seat %d may not see", t, name, seat)
			}
		}
	}
	return nil
}

var eventCardKeys = map[string]bool{"card": true, "taken": true, "replacement": true, "drawn": true,
	"discarded": true, "copied": true, "supporter": true, "cards": true, "supporters": true, "kept": true}

func checkRedacted(before, after engine.State, seat int, e engine.Event, raw []byte) error {
	cards, err := cardsIn(raw, eventCardKeys)
	if err != nil {
		return err
	}
	vb, va := visible(before.(*State), seat), visible(after.(*State), seat)
	for _, c := range cards {
		if !vb[c] && !va[c] {
			return fmt.Errorf("shows card %d", c)
		}
	}
	return nil
}
