package lords

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
)

// labelCase is a table laid out in the scenario format, the moves that
// lead to a decision, and the label of one listed move (chosen by its JSON
// without the label) in each language.
type labelCase struct {
	name  string
	setup [][2]string // scenario setup lines: key, rest
	play  []string    // scenario "play" lines
	seat  int
	move  string // the move's JSON without label
	want  map[string]string
}

func labelCases() []labelCase {
	turn := [][2]string{{"hand 0", "Makgill7 Wemyss5"}, {"recruits", "Scott2 ~Forsyth4 - - -"}}
	return []labelCase{
		{"recruit face-up", turn, nil, 0, `{"type":"recruit","slot":0}`, map[string]string{
			"en": "Recruit the face-up Scott 2 (place 1)",
			"fr": "Recruter Scott 2, face visible (emplacement 1)",
			"it": "Recluta Scott 2, scoperta (posto 1)"}},
		{"recruit face-down", turn, nil, 0, `{"type":"recruit","slot":1}`, map[string]string{
			"en": "Recruit the face-down card (place 2)",
			"fr": "Recruter la recrue face cachée (emplacement 2)",
			"it": "Recluta la carta coperta (posto 2)"}},
		{"muster face-up", turn, nil, 0, `{"type":"muster","card":RANK:Makgill7,"face_up":true}`, map[string]string{
			"en": "Muster Makgill 7 face-up",
			"fr": "Engager Makgill 7 face visible",
			"it": "Schiera Makgill 7 scoperta"}},
		{"muster face-down", turn, nil, 0, `{"type":"muster","card":RANK:Wemyss5,"face_up":false}`, map[string]string{
			"en": "Muster Wemyss 5 face-down",
			"fr": "Engager Wemyss 5 face cachée",
			"it": "Schiera Wemyss 5 coperta"}},
		{"use power", [][2]string{{"hand 0", "Forsyth3 Wemyss5"}}, []string{"play 0 muster Forsyth3 up"}, 0,
			`{"type":"power","use":true}`, map[string]string{
				"en": "Use the power of Forsyth 3: draw a card",
				"fr": "Utiliser le pouvoir de Forsyth 3\u00a0: piocher une carte",
				"it": "Usa il potere di Forsyth 3: pesca una carta"}},
		{"decline power", [][2]string{{"hand 0", "Forsyth3 Wemyss5"}}, []string{"play 0 muster Forsyth3 up"}, 0,
			`{"type":"power","use":false}`, map[string]string{
				"en": "Do not use the power of Forsyth 3",
				"fr": "Ne pas utiliser le pouvoir de Forsyth 3",
				"it": "Non usare il potere di Forsyth 3"}},
		{"copy", [][2]string{{"hand 0", "Scott1 Wemyss2"}, {"army 1", "Makgill5"}}, []string{"play 0 muster Scott1 up"}, 0,
			`{"type":"copy","seat":1,"index":0}`, map[string]string{
				"en": "Copy the power of Makgill 5 (Bob): muster another follower",
				"fr": "Copier le pouvoir de Makgill 5 (Bob)\u00a0: engager un autre allié",
				"it": "Copia il potere di Makgill 5 (Bob): schiera un'altra carta clan"}},
		{"fergusson", [][2]string{{"hand 0", "Fergusson1 Wemyss2"}, {"army 1", "Makgill5 ~Scott9"}}, []string{"play 0 muster Fergusson1 up"}, 0,
			`{"type":"target","seat":1,"index":0}`, map[string]string{
				"en": "Fergusson: swap it with Makgill 5 of Bob",
				"fr": "Fergusson\u00a0: l'échanger contre Makgill 5 de Bob",
				"it": "Fergusson: scambiala con Makgill 5 di Bob"}},
		{"fergusson face-down", [][2]string{{"hand 0", "Fergusson1 Wemyss2"}, {"army 1", "Makgill5 ~Scott9"}}, []string{"play 0 muster Fergusson1 up"}, 0,
			`{"type":"target","seat":1,"index":1}`, map[string]string{
				"en": "Fergusson: swap it with the face-down follower at position 2 of Bob",
				"fr": "Fergusson\u00a0: l'échanger contre l'allié face cachée en position 2 de Bob",
				"it": "Fergusson: scambiala con la carta clan coperta in posizione 2 di Bob"}},
		{"wemyss", [][2]string{{"hand 0", "Wemyss1 Scott2"}, {"army 1", "Makgill5"}}, []string{"play 0 muster Wemyss1 up"}, 0,
			`{"type":"target","seat":1,"index":0}`, map[string]string{
				"en": "Wemyss: discard Makgill 5 of Bob",
				"fr": "Wemyss\u00a0: défausser Makgill 5 de Bob",
				"it": "Wemyss: scarta Makgill 5 di Bob"}},
		{"cockburn", [][2]string{{"hand 0", "Cockburn1 Scott2"}, {"supporters", "Forsyth3 Scott9"}}, []string{"play 0 muster Cockburn1 up"}, 0,
			`{"type":"target","card":RANK:Scott9}`, map[string]string{
				"en": "Cockburn: swap it with the supporter Scott 9",
				"fr": "Cockburn\u00a0: l'échanger contre le partisan Scott 9",
				"it": "Cockburn: scambiala con il supporter Scott 9"}},
		{"claim", [][2]string{{"turn", "5"}, {"step", "1"}, {"army 0", "Scott7"}, {"army 1", "Wemyss2"},
			{"hand 1", "Makgill3"}, {"supporters", "Forsyth3 Scott9"}}, []string{"play 1 muster Makgill3 down"}, 0,
			`{"type":"claim","card":RANK:Forsyth3}`, map[string]string{
				"en": "Claim the supporter Forsyth 3",
				"fr": "Récupérer le partisan Forsyth 3",
				"it": "Rivendica il supporter Forsyth 3"}},
	}
}

// labelState lays out c's table, names the players (if names) in lang and
// plays c's moves.
func labelState(t *testing.T, g *Game, c labelCase, names []string, lang string) *scenario {
	t.Helper()
	sc := &scenario{t: t, g: g, names: names}
	setup := map[string][]string{}
	var order []string
	for _, kv := range c.setup {
		setup[kv[0]] = strings.Fields(kv[1])
		order = append(order, kv[0])
	}
	sc.build(setup, order)
	sc.s.Names, sc.s.Lang = names, lang
	sc.s.lab = newLabeling(g.d, names, lang)
	for _, p := range c.play {
		sc.step(p)
	}
	return sc
}

// moveJSON resolves RANK:Card placeholders in a case's move.
func (sc *scenario) moveJSON(raw string) string {
	for {
		i := strings.Index(raw, "RANK:")
		if i < 0 {
			return raw
		}
		j := i + len("RANK:")
		for j < len(raw) && raw[j] != ',' && raw[j] != '}' {
			j++
		}
		raw = raw[:i] + itoa(sc.rank(raw[i+len("RANK:"):j])) + raw[j:]
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// labelOf is the label of the listed move of seat equal to raw (label aside).
func labelOf(t *testing.T, s *State, seat int, raw string) string {
	t.Helper()
	var listed []string
	for _, m := range s.Legal(seat) {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if withoutLabel(string(b)) == withoutLabel(raw) {
			return m.Label()
		}
		listed = append(listed, string(b))
	}
	t.Fatalf("%s is not listed among %v", raw, listed)
	return ""
}

func TestLabelsInEveryLanguage(t *testing.T) {
	g := newGame(t)
	for _, c := range labelCases() {
		for _, lang := range []string{"en", "fr", "it"} {
			t.Run(c.name+"/"+lang, func(t *testing.T) {
				sc := labelState(t, g, c, []string{"Ann", "Bob"}, lang)
				got := labelOf(t, sc.s, c.seat, sc.moveJSON(c.move))
				if got != c.want[lang] {
					t.Errorf("label %q, want %q", got, c.want[lang])
				}
			})
		}
	}
}

func TestLabelsWithoutNamesOrLanguage(t *testing.T) {
	g := newGame(t)
	for _, c := range labelCases() {
		if c.name != "copy" && c.name != "wemyss" {
			continue
		}
		for _, lang := range []string{"", "de"} {
			sc := labelState(t, g, c, nil, lang)
			got := labelOf(t, sc.s, c.seat, sc.moveJSON(c.move))
			if want := strings.ReplaceAll(c.want["en"], "Bob", "Player 2"); got != want {
				t.Errorf("%s, language %q: label %q, want %q", c.name, lang, got, want)
			}
		}
	}
	sc := labelState(t, g, labelCases()[0], []string{"Ann", ""}, "fr")
	if got := sc.s.labels().player(1); got != "Joueur 2" {
		t.Errorf("an empty name gives %q, want Joueur 2", got)
	}
	sc = labelState(t, g, labelCases()[0], nil, "it")
	if got := sc.s.labels().player(0); got != "Giocatore 1" {
		t.Errorf("no names give %q, want Giocatore 1", got)
	}
}

// A face-down follower the mover has not seen is never named: the label
// of the Fergusson target shows its position only.
func TestLabelsHideUnseenCards(t *testing.T) {
	g := newGame(t)
	for _, c := range labelCases() {
		if c.name != "fergusson face-down" {
			continue
		}
		for _, lang := range []string{"en", "fr", "it"} {
			sc := labelState(t, g, c, []string{"Ann", "Bob"}, lang)
			for _, m := range sc.s.Legal(0) {
				if strings.Contains(m.Label(), "Scott 9") {
					t.Errorf("%s: label %q names the unseen Scott 9", lang, m.Label())
				}
			}
		}
	}
}

func TestNewKeepsNamesAndLanguage(t *testing.T) {
	g := newGame(t)
	st, err := g.New(engine.Setup{Players: 3, Seed: seedOf(5), Names: []string{"Ann", "Bob", "Cid", "extra"}, Language: "IT"})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if !slices.Equal(s.Names, []string{"Ann", "Bob", "Cid"}) || s.Lang != "it" {
		t.Fatalf("names %v, lang %q", s.Names, s.Lang)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := g.DecodeState(raw)
	if err != nil {
		t.Fatal(err)
	}
	want, got := s.Legal(0), back.Legal(0)
	if len(got) != len(want) || got[0].Label() != want[0].Label() || !strings.HasPrefix(want[0].Label(), "Recluta") {
		t.Fatalf("labels after decoding: %v, want %v", got, want)
	}
	// A state written before names and languages existed decodes, in English.
	plain, _ := g.New(engine.Setup{Players: 3, Seed: seedOf(5)})
	raw, _ = json.Marshal(plain)
	if strings.Contains(string(raw), `"names"`) || strings.Contains(string(raw), `"lang"`) {
		t.Fatalf("a setup without names writes them: %s", raw)
	}
	old, err := g.DecodeState(raw)
	if err != nil {
		t.Fatal(err)
	}
	if l := old.Legal(0)[0].Label(); !strings.HasPrefix(l, "Recruit") {
		t.Fatalf("old state labels %q", l)
	}
}

func TestSummaryNamesTheWinner(t *testing.T) {
	lab := newLabeling(nil, []string{"Ann", "Bob"}, "fr")
	r := []Place{{Seat: 1, Points: 41, RoundPlace: 1}, {Seat: 0, Points: 41, RoundPlace: 2}}
	want := "Bob gagne avec 41 points de partisans (égalité départagée par la meilleure place de la dernière manche\u00a0: 1)"
	if got := lab.summary(r, r[0]); got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if got := newLabeling(nil, nil, "en").summary(r[:1], r[0]); got != "Player 2 wins with 41 supporter strength" {
		t.Errorf("summary %q", got)
	}
	// A game set up with neither (before they existed) keeps its first wording.
	if got := newLabeling(nil, nil, "").summary(r, r[0]); got != "Seat 1 wins with 41 supporter strength (tie broken by a better place in the final round: 1)" {
		t.Errorf("summary %q", got)
	}
	if got := newLabeling(nil, []string{"Ann", "Bob"}, "it").summary(r[:1], r[0]); got != "Bob vince con 41 punti di supporter" {
		t.Errorf("summary %q", got)
	}
}

// A seat given to a new player is named after them: Speak with the
// current names relabels the moves (and the explanations), in every
// language, and leaves the state it was called on as it was; with the
// state's own names and language it is the state itself.
func TestSpeakNamesWhoeverHoldsTheSeatNow(t *testing.T) {
	g := newGame(t)
	for _, c := range labelCases() {
		if c.name != "wemyss" && c.name != "copy" {
			continue
		}
		for _, lang := range []string{"en", "fr", "it"} {
			sc := labelState(t, g, c, []string{"Ann", "Bob"}, lang)
			raw := sc.moveJSON(c.move)
			sp := sc.s.Speak(lang, []string{"Ann", "Dee"}).(*State)
			if got, want := labelOf(t, sp, c.seat, raw), strings.ReplaceAll(c.want[lang], "Bob", "Dee"); got != want {
				t.Errorf("%s/%s: label %q, want %q", c.name, lang, got, want)
			}
			if got := labelOf(t, sc.s, c.seat, raw); got != c.want[lang] {
				t.Errorf("%s/%s: Speak changed the state's label to %q", c.name, lang, got)
			}
			// A missing name keeps the setup's.
			if got := labelOf(t, sc.s.Speak(lang, []string{"Ann"}).(*State), c.seat, raw); got != c.want[lang] {
				t.Errorf("%s/%s: with a name missing, label %q", c.name, lang, got)
			}
			if sc.s.Speak(lang, []string{"Ann", "Bob"}) != engine.State(sc.s) {
				t.Errorf("%s/%s: Speak with the state's own names and language made a copy", c.name, lang)
			}
		}
	}
}
