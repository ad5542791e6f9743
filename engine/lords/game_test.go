package lords

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pbem/engine"
)

func ruleCode(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}

func TestDeckMatchesTheRankFormula(t *testing.T) {
	d := newGame(t).d
	if len(d.all) != 98 || len(d.bruce) != 2 {
		t.Fatalf("%d cards, %d Bruce", len(d.all), len(d.bruce))
	}
	for _, r := range d.all {
		cl, str := d.clan(r), d.strength(r)
		if cl == Bruce {
			if r != 97 && r != 98 || str != 12 {
				t.Errorf("Bruce card %d strength %d", r, str)
			}
			continue
		}
		if want := 8*(str-1) + int(cl); r != want {
			t.Errorf("%s %d has rank %d, want %d", cl, str, r, want)
		}
	}
	for name, rank := range map[string]int{"Makgill 1": 2, "MacDonnell 1": 3, "Makgill 9": 66} {
		if got := d.cardName(rank, "en"); got != name {
			t.Errorf("rank %d is %s, want %s", rank, got, name)
		}
	}
}

func TestParseDeckRejectsBadData(t *testing.T) {
	for _, text := range []string{
		"", "rank,clan,strength\n1,Scott,1\n1,Scott,2\n", "rank,clan,strength\n1,Nobody,1\n",
		"rank,clan,strength\n0,Scott,1\n", "rank,clan,strength\n1,Scott,x\n", "a,b,c\n1,Scott,1\n",
	} {
		if _, err := parseDeck(text); err == nil {
			t.Errorf("parseDeck(%q) accepted", text)
		}
	}
}

func TestNewOptions(t *testing.T) {
	g := newGame(t)
	for _, tc := range []struct {
		players int
		opts    string
		cards   int
		code    string
	}{
		{4, ``, 96, ""}, {4, `{}`, 96, ""}, {4, `null`, 96, ""}, {2, `{"bruce":false}`, 96, ""},
		{5, `{"bruce":true}`, 98, ""}, {3, `{"bruce":true,"x":1}`, 0, engine.CodeBadOptions},
		{3, `{"brûce":true}`, 0, engine.CodeBadOptions}, {3, `{"bruce":"yes"}`, 0, engine.CodeBadOptions},
		{3, `{`, 0, engine.CodeBadOptions}, {1, `{}`, 0, engine.CodeBadOptions}, {6, `{}`, 0, engine.CodeBadOptions},
	} {
		st, err := g.New(engine.Setup{Players: tc.players, Options: json.RawMessage(tc.opts), Seed: seedOf(3)})
		if tc.code != "" {
			if ruleCode(err) != tc.code {
				t.Errorf("%d %s: err %v, want %s", tc.players, tc.opts, err, tc.code)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d %s: %v", tc.players, tc.opts, err)
		}
		s := st.(*State)
		if err := s.checkCards(); err != nil {
			t.Fatal(err)
		}
		n := len(s.Draw) + len(s.Supporters) + 5
		for _, h := range s.Hands {
			n += len(h)
		}
		if n != tc.cards {
			t.Errorf("%d %s: %d cards, want %d", tc.players, tc.opts, n, tc.cards)
		}
	}
}

func TestSetup(t *testing.T) {
	g := newGame(t)
	for i := range 200 {
		n := 2 + i%4
		st, err := g.New(engine.Setup{Players: n, Seed: seedOf(uint64(i))})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for q := range n {
			if len(s.Hands[q]) != 5 || len(s.Armies[q]) != 0 {
				t.Fatalf("seat %d: hand %d army %d", q, len(s.Hands[q]), len(s.Armies[q]))
			}
		}
		// The initiative holder has turned the first recruit for turn 1.
		for k, r := range s.Recruits {
			if r.Card == 0 || r.FaceUp != (k == 0) {
				t.Fatalf("recruits %+v", s.Recruits)
			}
		}
		if len(s.Supporters) != n || s.sameStrength(s.Supporters) {
			t.Fatalf("supporters %v", s.Supporters)
		}
		if s.Round != 1 || s.Turn != 1 || s.Initiative != 0 || s.awaited() != 0 {
			t.Fatalf("round %d turn %d initiative %d to move %d", s.Round, s.Turn, s.Initiative, s.awaited())
		}
	}
}

func TestSameSeedSameGame(t *testing.T) {
	g := newGame(t)
	a, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(9)})
	b, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(9)})
	c, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(10)})
	ja, jb, jc := mustJSON(a), mustJSON(b), mustJSON(c)
	if ja != jb || ja == jc {
		t.Fatal("the seed does not decide the deal")
	}
}

func TestDecodeMove(t *testing.T) {
	g := newGame(t)
	for _, tc := range []struct{ in, code string }{
		{`{"type":"recruit","slot":2,"label":"Recruit the face-up Scott 7"}`, ""},
		{`{"type":"muster","card":55,"face_up":true}`, ""},
		{`{"type":"target","card":12}`, ""},
		{`{"type":"target","seat":1,"index":0}`, ""},
		{`{"type":"recruit","slot":2,"colour":"red"}`, engine.CodeBadMove},
		{`{"type":"recruit"}`, engine.CodeBadMove},
		{`{"type":"recruit","slot":1,"card":3}`, engine.CodeBadMove},
		{`{"type":"muster","card":55}`, engine.CodeBadMove},
		{`{"type":"muster","card":"55","face_up":true}`, engine.CodeBadMove},
		{`{"type":"fly"}`, engine.CodeBadMove},
		{`{"slot":1}`, engine.CodeBadMove},
		{`{"type":"target","card":0}`, engine.CodeBadMove},
		{`{"type":"claim","card":3} {}`, engine.CodeBadMove},
		{`[]`, engine.CodeBadMove},
		{``, engine.CodeBadMove},
	} {
		_, err := g.DecodeMove([]byte(tc.in))
		if ruleCode(err) != tc.code && !(tc.code == "" && err == nil) {
			t.Errorf("DecodeMove(%s) = %v, want %q", tc.in, err, tc.code)
		}
	}
}

func TestListedMovesHaveLabelsAndPostBack(t *testing.T) {
	g := newGame(t)
	st, _ := g.New(engine.Setup{Players: 2, Seed: seedOf(1)})
	legal := st.Legal(0)
	if len(legal) == 0 {
		t.Fatal("no moves")
	}
	for _, m := range legal {
		raw := mustJSON(m)
		if !strings.Contains(raw, `"label":"`) || !strings.Contains(raw, `"type":"`) {
			t.Fatalf("move %s", raw)
		}
		back, err := g.DecodeMove([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if _, err := st.Decide(0, back); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
	if _, err := st.Decide(1, legal[0]); ruleCode(err) != engine.CodeNotYourTurn {
		t.Fatalf("seat 1: %v", err)
	}
	if _, err := st.Decide(0, fakeMove{}); ruleCode(err) != engine.CodeBadMove {
		t.Fatalf("foreign move: %v", err)
	}
}

type fakeMove struct{}

func (fakeMove) Label() string       { return "fake" }
func (fakeMove) About() engine.About { return engine.About{Kind: "fake"} }

func TestViewShape(t *testing.T) {
	g := newGame(t)
	st, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(4)})
	var v map[string]any
	if err := json.Unmarshal([]byte(mustJSON(st.View(0))), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"hand", "seats", "recruits", "supporters", "draw_count", "discard_count",
		"round", "turn", "initiative", "macdonnell", "pending"} {
		if _, ok := v[k]; !ok {
			t.Errorf("view has no %q", k)
		}
	}
	hand := v["hand"].([]any)
	card := hand[0].(map[string]any)
	for _, k := range []string{"rank", "clan", "strength", "power"} {
		if _, ok := card[k]; !ok {
			t.Errorf("card has no %q: %v", k, card)
		}
	}
	rec := v["recruits"].([]any)[1].(map[string]any)
	if rec["hidden"] != true || rec["rank"] != nil {
		t.Errorf("face-down recruit shown: %v", rec)
	}
	spect := mustJSON(st.View(engine.Spectator))
	if !strings.Contains(spect, `"hand":[]`) {
		t.Errorf("spectator view %s", spect)
	}
	// The legal moves are listed once, by the API, beside the view.
	if _, ok := v["legal_moves"]; ok {
		t.Error("view lists the legal moves")
	}
}

func TestDefaultMoves(t *testing.T) {
	g := newGame(t)
	st, _ := g.New(engine.Setup{Players: 2, Seed: seedOf(5)})
	s := st.(*State)
	m := s.DefaultMove(0).(*Move)
	if m.Type != MoveRecruit || m.Slot != 0 { // the only face-up recruit
		t.Fatalf("default %s", mustJSON(m))
	}
	if s.DefaultMove(1) != nil {
		t.Fatal("a default move for a seat not to move")
	}
	s.Hands[0] = append(s.Hands[0], s.Draw[:5]...)
	s.Draw = s.Draw[5:]
	m = s.DefaultMove(0).(*Move)
	weakest := s.Hands[0][0]
	for _, c := range s.Hands[0] {
		if s.d.strength(c) < s.d.strength(weakest) {
			weakest = c
		}
	}
	if m.Type != MoveMuster || m.FaceUp || s.d.strength(m.Card) != s.d.strength(weakest) {
		t.Fatalf("default with a full hand %s", mustJSON(m))
	}
}

func TestDescribeEveryLanguage(t *testing.T) {
	g := newGame(t)
	names := []string{"Ann", "Bob"}
	e := Mustered{Seat: 0, Card: 55, FaceUp: false}
	red := g.Redact(e, 1)
	for lang, want := range map[string]string{
		"en": "Ann mustered a card face-down.", "fr": "Ann a engagé une carte face cachée.",
		"it": "Ann ha schierato una carta coperta.", "de": "Ann mustered a card face-down.",
	} {
		if got := g.Describe(red, names, lang); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := g.Describe(e, names, "en"); !strings.Contains(got, g.d.cardName(55, "en")) {
		t.Errorf("owner's description %q", got)
	}
}
