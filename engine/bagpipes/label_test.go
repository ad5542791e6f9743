package bagpipes

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/i18n"
)

// labelCase is a move and its expected label in en, fr and it.
type labelCase struct {
	move       Move
	en, fr, it string
}

func mv(typ string, f func(*Move)) Move {
	m := Move{Type: typ, Units: -1, To: -1, Target: -1}
	if f != nil {
		f(&m)
	}
	return m
}

// labelCases covers every move type, with the players' names.
var labelCases = []labelCase{
	{mv(MoveReplenish, func(m *Move) { m.Action = ActTaxes }),
		"Collect taxes (+1 gold)", "Percevoir des impôts (+1 pièce d'or)", "Riscuoti le tasse (+1 moneta d'oro)"},
	{mv(MoveReplenish, func(m *Move) { m.Action = ActMilitia }),
		"Raise militia (+1 unit in every camp and in Scotland's camp)",
		"Lever une milice (+1 unité dans chaque camp et dans le camp de l'Écosse)",
		"Arruola la milizia (+1 unità in ogni accampamento e nell'accampamento della Scozia)"},
	{mv(MoveReplenish, func(m *Move) { m.Action = ActTroops }),
		"Assemble troops (+2 units in your castle)", "Rassembler des troupes (+2 unités dans votre château)",
		"Raduna le truppe (+2 unità nel tuo castello)"},
	{mv(MoveReplenish, func(m *Move) { m.Action, m.step = ActMercenaries, 2 }),
		"Stay home: Hire mercenaries (pay 1 gold, +4 units in your castle) (2 of 3)",
		"Restez chez vous\u202f! — Engager des mercenaires (défausser 1 pièce d'or, +4 unités dans votre château) (2 sur 3)",
		"Resta a casa: Assolda mercenari (paga 1 moneta d'oro, +4 unità nel tuo castello) (2 di 3)"},
	{mv(MoveRelocate, func(m *Move) { m.Units = 1 }),
		"Move 1 unit from your castle to your camp", "Délocaliser 1 unité de votre château vers votre camp",
		"Sposta 1 unità dal tuo castello al tuo accampamento"},
	{mv(MoveRelocate, func(m *Move) { m.Units = 3 }),
		"Move 3 units from your castle to your camp", "Délocaliser 3 unités de votre château vers votre camp",
		"Sposta 3 unità dal tuo castello al tuo accampamento"},
	{mv(MovePlay, func(m *Move) { m.Card, m.Units = "mercenary-captain", 4 }),
		"Play Mercenary Captain: You lose 1 gold. You add 4 units to your camp.",
		"Jouer Capitaine mercenaire\u00a0: Vous perdez 1 pièce d'or. Vous ajoutez 4 unités à votre camp.",
		"Gioca Capitano mercenario: Perdi 1 moneta d'oro. Aggiungi 4 unità al tuo accampamento."},
	{mv(MovePlay, func(m *Move) { m.Card, m.Target = "ransom", 2 }),
		"Play Ransom on Cid: A player of your choice loses 2 gold. You gain 1 gold.",
		"Jouer Rançon en ciblant Cid\u00a0: Un joueur de votre choix perd 2 pièces d'or. Vous recevez 1 pièce d'or.",
		"Gioca Riscatto su Cid: Un giocatore a tua scelta perde 2 monete d'oro. Ricevi 1 moneta d'oro."},
	{mv(MovePlay, func(m *Move) { m.Card = "pipers-lament" }),
		"Play Piper's Lament: You draw 2 bagpipe cards.", "Jouer La complainte du sonneur\u00a0: Vous piochez 2 cartes cornemuse.",
		"Gioca Il lamento del suonatore di cornamusa: Peschi 2 carte cornamusa."},
	{mv(MoveEndTurn, nil), "End your turn", "Terminer votre tour", "Termina il tuo turno"},
	{mv(MovePass, nil), "Play no more bagpipe cards in this phase",
		"Ne plus jouer de cartes cornemuse dans cette phase", "Non giocare altre carte cornamusa in questa fase"},
	{mv(MovePassBadge, func(m *Move) { m.To = 1 }), "Give the badge of honour to Bob",
		"Passer la médaille d'honneur à Bob", "Passa la medaglia d'onore a Bob"},
	{mv(MoveKeepBadge, nil), "Keep the badge of honour", "Garder la médaille d'honneur", "Tieni la medaglia d'onore"},
	{mv(MoveStayHome, func(m *Move) { m.To = 3 }), "Give the Stay Home! token to Dee",
		"Donner le jeton «\u00a0Restez chez vous\u202f!\u00a0» à Dee", "Dai il segnalino «Resta a casa!» a Dee"},
	{mv(MoveChoose, func(m *Move) { m.Side = "scotland" }), "Support Scotland", "Soutenir l'Écosse", "Sostieni la Scozia"},
	{mv(MoveChoose, func(m *Move) { m.Side, m.Dagger = "england", 2 }),
		"Support England and offer a dagger card with 2 daggers",
		"Soutenir l'Angleterre et préparer une carte dague à 2 dagues",
		"Sostieni l'Inghilterra e prepara una carta pugnale da 2 pugnali"},
	{mv(MoveChoose, func(m *Move) { m.Side, m.Dagger = "scotland", 1 }),
		"Support Scotland and offer a dagger card with 1 dagger",
		"Soutenir l'Écosse et préparer une carte dague à 1 dague",
		"Sostieni la Scozia e prepara una carta pugnale da 1 pugnale"},
}

func TestLabelsInEveryLanguage(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	types := map[string]bool{}
	for _, c := range labelCases {
		types[c.move.Type] = true
		for li, want := range []string{c.en, c.fr, c.it} {
			m := c.move
			m.lab = &labeling{set: DefaultCards(), names: names, lang: i18n.Languages[li]}
			if got := m.Label(); got != want {
				t.Errorf("%s %s label:\n got %q\nwant %q", i18n.Languages[li], c.move.Type, got, want)
			}
		}
	}
	for _, typ := range []string{MoveReplenish, MoveRelocate, MovePlay, MoveEndTurn, MovePassBadge,
		MoveKeepBadge, MoveStayHome, MoveChoose, MovePass} {
		if !types[typ] {
			t.Errorf("no label case for %s", typ)
		}
	}
}

func TestLabelsWithoutNames(t *testing.T) {
	for _, c := range []struct {
		move  Move
		names []string
		lang  string
		want  string
	}{
		{mv(MovePassBadge, func(m *Move) { m.To = 1 }), nil, "en", "Give the badge of honour to Player 2"},
		{mv(MovePassBadge, func(m *Move) { m.To = 1 }), []string{"Ann", " "}, "fr", "Passer la médaille d'honneur à Joueur 2"},
		{mv(MoveStayHome, func(m *Move) { m.To = 4 }), []string{"Ann"}, "it", "Dai il segnalino «Resta a casa!» a Giocatore 5"},
		{mv(MovePlay, func(m *Move) { m.Card, m.Target = "ransom", 0 }), nil, "de",
			"Play Ransom on Player 1: A player of your choice loses 2 gold. You gain 1 gold."},
	} {
		m := c.move
		m.lab = &labeling{set: DefaultCards(), names: c.names, lang: i18n.Norm(c.lang)}
		if got := m.Label(); got != c.want {
			t.Errorf("%s label without names: got %q, want %q", c.lang, got, c.want)
		}
	}
}

// TestLegalLabelsFollowSetup deals a game with names and a language and
// checks that listed moves, their JSON and the view's card texts use them.
func TestLegalLabelsFollowSetup(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid"}
	for _, c := range []struct{ lang, taxes, cue string }{
		{"fr", "Percevoir des impôts (+1 pièce d'or)", "Vous"},
		{"it", "Riscuoti le tasse (+1 moneta d'oro)", "."},
		{"", "Collect taxes (+1 gold)", "."},
	} {
		st, err := Game{}.New(engine.Setup{Players: 3, Seed: engine.Seed{9}, Names: names, Language: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		seat := st.ToMove()[0]
		ms := st.Legal(seat)
		if ms[0].Label() != c.taxes {
			t.Errorf("%q: first label %q, want %q", c.lang, ms[0].Label(), c.taxes)
		}
		raw, _ := json.Marshal(ms[0])
		if !bytes.Contains(raw, []byte(c.taxes)) {
			t.Errorf("%q: move JSON %s lacks its label", c.lang, raw)
		}
		v := st.View(seat).(View)
		for _, card := range v.Hand {
			b := DefaultCards().Bagpipes[DefaultCards().bagByID[card.ID]]
			if want := b.TextIn(c.lang); card.Text != want {
				t.Errorf("%q: card %s text %q, want %q", c.lang, card.ID, card.Text, want)
			}
		}
		// Labels survive a JSON round trip of the state.
		data, _ := json.Marshal(st)
		back, err := Game{}.DecodeState(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Legal(seat)[0].Label(); got != c.taxes {
			t.Errorf("%q: decoded state's label %q", c.lang, got)
		}
	}
}

// TestPostedLabelIgnored: a posted move's label is ignored; the move gets
// the engine's English label.
func TestPostedLabelIgnored(t *testing.T) {
	m, err := Game{}.DecodeMove([]byte(`{"type":"pass_badge","to":2,"label":"<b>anything</b>"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Label(); got != "Give the badge of honour to Player 3" {
		t.Errorf("posted move label %q", got)
	}
}

func TestCardTextsInEveryLanguage(t *testing.T) {
	data, err := os.ReadFile("testdata/cards-test.json")
	if err != nil {
		t.Fatal(err)
	}
	custom, err := ParseCards(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range []*CardSet{DefaultCards(), custom} {
		for i, c := range cs.Bagpipes {
			for li, lang := range i18n.Languages {
				txt := cs.texts[lang][i]
				if txt == "" || strings.Contains(txt, "%!") || txt != c.TextIn(lang) {
					t.Errorf("%s text of %s: %q", lang, c.ID, txt)
				}
				if li > 0 && txt == cs.texts["en"][i] {
					t.Errorf("%s text of %s is the English one: %q", lang, c.ID, txt)
				}
			}
		}
	}
	fal := DefaultCards().armies[DefaultCards().armyByID["falkirk"]]
	for lang, want := range map[string]string{
		"en": "England's army gets 2 more units this round.",
		"fr": "L'armée anglaise compte 2 unités de plus cette manche.",
		"it": "L'esercito inglese ha 2 unità in più in questo round.",
	} {
		if got := fal.TextIn(lang); got != want {
			t.Errorf("%s army text %q, want %q", lang, got, want)
		}
	}
}

// TestOldStateReplays decodes a state written before states carried names
// and language, plays the recorded rest of its game and compares the final
// state with the one these rules write, byte for byte (it was rewritten
// for bagpipes-3, whose awards differ for deserters, and for bagpipes-4,
// which refuses three of its plays of no unit: see its "about"; the
// replay of old events is TestOldAwardsReplay's).
func TestOldStateReplays(t *testing.T) {
	raw, err := os.ReadFile("testdata/old-state.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		State json.RawMessage `json:"state"`
		Moves []struct {
			Seat int             `json:"seat"`
			Move json.RawMessage `json:"move"`
		} `json:"moves"`
		Final json.RawMessage `json:"final"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	st, err := Game{}.DecodeState(fx.State)
	if err != nil {
		t.Fatal(err)
	}
	for i, sm := range fx.Moves {
		m, err := Game{}.DecodeMove(sm.Move)
		if err != nil {
			t.Fatal(err)
		}
		for _, lm := range st.Legal(sm.Seat) { // English, neutral names
			if l := lm.Label(); l == "" || strings.Contains(l, "%!") || strings.Contains(l, "Joueur") {
				t.Fatalf("move %d: label %q of an old state", i, l)
			}
		}
		evs, err := st.Decide(sm.Seat, m)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
	}
	got, _ := json.Marshal(st)
	var want bytes.Buffer
	if err := json.Compact(&want, fx.Final); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("replayed old state differs:\n got %s\nwant %s", got, want.Bytes())
	}
	if st.Result() == nil {
		t.Error("the replayed game did not end")
	}
}
