package bagpipes

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/i18n"
	"pbem/engine/i18n/i18ntest"
)

// The catalog has the same keys and arguments in en, fr and it.
func TestCatalogCheck(t *testing.T) {
	if err := texts.Check(); err != nil {
		t.Fatal(err)
	}
}

// Every card of the default set has its name in every language: the
// English one is cards.json's, the French the rulebook's where it gives
// one; a custom card keeps the name its file gives.
func TestCardNames(t *testing.T) {
	cs := DefaultCards()
	for lang, want := range map[string]map[string]string{
		"en": {"lambertons-help": "Lamberton's Help", "balliols-plan": "Balliol's Plan", "bruces-trick": "Bruce's Trick"},
		"fr": {"lambertons-help": "L'aide de Lamberton", "balliols-plan": "Le plan de Balliol", "bruces-trick": "Le tour de Robert Bruce",
			"wallaces-gratitude": "La gratitude de Wallace", "popes-influence": "Influence du Pape", "the-guardians": "Les Gardiens"},
		"it": {"lambertons-help": "L'aiuto di Lamberton", "balliols-plan": "Il piano di Balliol"},
	} {
		for id, name := range want {
			if got := cardName(lang, id, cs.armyOrBagName(id)); got != name {
				t.Errorf("%s name of %s: %q, want %q", lang, id, got, name)
			}
		}
	}
	// The French rulebook keeps these two army cards' printed names.
	keptInFrench := map[string]bool{"irvine-capitulation": true, "bruce-join-us-again": true, "vive-la-france": true}
	ids := []string{}
	for _, c := range cs.Bagpipes {
		ids = append(ids, c.ID)
	}
	for _, c := range cs.armies {
		ids = append(ids, c.ID)
	}
	for _, id := range ids {
		en := cs.armyOrBagName(id)
		if englishNames[id] != en {
			t.Errorf("the catalog's English name of %s is %q, cards.json's %q", id, englishNames[id], en)
		}
		if got := cardName("en", id, en); got != en {
			t.Errorf("English name of %s: %q, want cards.json's %q", id, got, en)
		}
		for _, lang := range []string{"fr", "it"} {
			if got := cardName(lang, id, en); got == en && !(lang == "fr" && keptInFrench[id]) {
				t.Errorf("%s name of %s is the English one: %q", lang, id, got)
			}
		}
	}
	if got := cardName("fr", "ransom", "My Ransom"); got != "My Ransom" {
		t.Errorf("a custom card renamed: %q", got)
	}
	if got := cardName("fr", "my-card", "My Card"); got != "My Card" {
		t.Errorf("a custom card: %q", got)
	}
}

// armyOrBagName is the set's own name of a card id.
func (cs *CardSet) armyOrBagName(id string) string {
	if c, ok := cs.bagByID[id]; ok {
		return cs.Bagpipes[c].Name
	}
	return cs.armies[cs.armyByID[id]].Name
}

// The counted texts take the language's plural forms (French "one"
// covers 0 and 1, Italian's only 1), never "unit(s)".
func TestPluralTable(t *testing.T) {
	names := []string{"Élodie", "Ugo", "Hélène"}
	g := Game{}
	for _, tc := range []struct {
		lang string
		e    engine.Event
		want string
	}{
		{"en", Relocated{Seat: 1, Units: 1}, "Ugo moves 1 unit to their camp."},
		{"en", Relocated{Seat: 1, Units: 3}, "Ugo moves 3 units to their camp."},
		{"en", Relocated{Seat: 1, Units: 0}, "Ugo moves 0 units to their camp."},
		{"fr", Relocated{Seat: 1, Units: 0}, "Ugo délocalise 0 unité vers son camp."},
		{"fr", Relocated{Seat: 1, Units: 1}, "Ugo délocalise 1 unité vers son camp."},
		{"fr", Relocated{Seat: 1, Units: 3}, "Ugo délocalise 3 unités vers son camp."},
		{"it", Relocated{Seat: 1, Units: 1}, "Ugo sposta 1 unità nel suo accampamento."},
		{"it", Relocated{Seat: 1, Units: 3}, "Ugo sposta 3 unità nel suo accampamento."},
		{"en", BadgePassed{From: 0, To: 1, Moved: 1}, "Élodie gives the badge of honour to Ugo, who sends 1 unit to Scotland's camp."},
		{"en", BadgePassed{From: 0, To: 1, Moved: 2}, "Élodie gives the badge of honour to Ugo, who sends 2 units to Scotland's camp."},
		{"fr", BadgePassed{From: 0, To: 1, Moved: 1}, "Élodie passe la médaille d'honneur à Ugo, qui envoie 1 unité au camp de l'Écosse."},
		{"fr", BadgePassed{From: 0, To: 1, Moved: 2}, "Élodie passe la médaille d'honneur à Ugo, qui envoie 2 unités au camp de l'Écosse."},
		{"en", CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1, Draws: []Draw{{}}},
			"Hélène plays Piper's Lament (1 card drawn or discarded)."},
		{"en", CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1, Draws: []Draw{{}, {}}},
			"Hélène plays Piper's Lament (2 cards drawn or discarded)."},
		{"fr", CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1, Draws: []Draw{{}}},
			"Hélène joue La complainte du sonneur (1 carte piochée ou défaussée)."},
		{"fr", CardPlayed{Seat: 2, Card: "ransom", Name: "Ransom", Units: -1, Target: 0, Draws: []Draw{{}, {}}},
			"Hélène joue Rançon sur Élodie (2 cartes piochées ou défaussées)."},
		{"it", CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1, Draws: []Draw{{}}},
			"Hélène gioca Il lamento del suonatore di cornamusa (1 carta pescata o scartata)."},
		{"it", CardPlayed{Seat: 2, Card: "pipers-lament", Name: "Piper's Lament", Units: -1, Target: -1, Draws: []Draw{{}, {}}},
			"Hélène gioca Il lamento del suonatore di cornamusa (2 carte pescate o scartate)."},
	} {
		if got := g.Describe(tc.e, names, tc.lang); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.lang, tc.e.EventType(), got, tc.want)
		}
	}
	for _, tc := range []struct {
		lang string
		m    Move
		want string
	}{
		{"en", mv(MoveChoose, func(m *Move) { m.Side, m.Dagger = "england", 1 }), "Support England and offer a dagger card with 1 dagger"},
		{"fr", mv(MoveChoose, func(m *Move) { m.Side, m.Dagger = "england", 3 }), "Soutenir l'Angleterre et préparer une carte dague à 3 dagues"},
		{"it", mv(MoveChoose, func(m *Move) { m.Side, m.Dagger = "england", 1 }), "Sostieni l'Inghilterra e prepara una carta pugnale da 1 pugnale"},
		{"en", mv(MoveRelocate, func(m *Move) { m.Units = 0 }), "Move 0 units from your castle to your camp"},
		{"fr", mv(MoveRelocate, func(m *Move) { m.Units = 0 }), "Délocaliser 0 unité de votre château vers votre camp"},
		{"en", mv(MovePlay, func(m *Move) { m.Card, m.Units = "kinsmen", 1 }), "Play Kinsmen: You add 1 unit to your castle."},
		{"fr", mv(MovePlay, func(m *Move) { m.Card, m.Units = "kinsmen", 0 }), "Jouer Liens du sang\u00a0: Vous ajoutez 0 unité à votre château."},
		{"it", mv(MovePlay, func(m *Move) { m.Card, m.Units = "kinsmen", 1 }), "Gioca Legami di sangue: Aggiungi 1 unità al tuo castello."},
	} {
		m := tc.m
		m.lab = &labeling{set: DefaultCards(), names: names, lang: tc.lang}
		if got := m.Label(); got != tc.want {
			t.Errorf("%s label: %q, want %q", tc.lang, got, tc.want)
		}
	}
	for _, tc := range []struct {
		lang          string
		gold, daggers int
		want          string
	}{
		{"en", 1, 1, "Scotland stands; Ugo wins with 1 gold and 1 dagger"},
		{"en", 9, 0, "Scotland stands; Ugo wins with 9 gold and 0 daggers"},
		{"fr", 1, 0, "L'Écosse tient bon\u202f; Ugo gagne avec 1 pièce d'or et 0 dague"},
		{"fr", 9, 4, "L'Écosse tient bon\u202f; Ugo gagne avec 9 pièces d'or et 4 dagues"},
		{"it", 1, 1, "La Scozia resiste; vince Ugo con 1 moneta d'oro e 1 pugnale"},
		{"it", 9, 0, "La Scozia resiste; vince Ugo con 9 monete d'oro e 0 pugnali"},
	} {
		s := &state{Names: names, Lang: tc.lang}
		if got := s.summary(GameEnded{Reason: "rounds", Traitor: -1}, false, 1, tc.gold, tc.daggers, false); got != tc.want {
			t.Errorf("%s summary: %q, want %q", tc.lang, got, tc.want)
		}
	}
	for lang, want := range map[string][2]string{
		"en": {"Raise militia (1 unit to every camp and to Scotland's camp).", "Raise militia 2 times (1 unit to every camp and to Scotland's camp, each time)."},
		"fr": {"Levez une milice (1 unité dans chaque camp et dans le camp de l'Écosse).", "Levez une milice 2 fois (1 unité dans chaque camp et dans le camp de l'Écosse, à chaque fois)."},
		"it": {"Arruola la milizia (1 unità in ogni accampamento e nell'accampamento della Scozia).", "Arruola la milizia 2 volte (1 unità in ogni accampamento e nell'accampamento della Scozia, ogni volta)."},
	} {
		for n := 1; n <= 2; n++ {
			if got := effectText(Effect{Kind: KindMilitia, Amount: n}, lang, -1); got != want[n-1] {
				t.Errorf("%s militia %d: %q, want %q", lang, n, got, want[n-1])
			}
		}
	}
}

// French elision happens at substitution points only: a name after "à"
// or a side that carries its article is left alone, and no mark of the
// mechanism is left in a text; so does Italian's euphonic d.
func TestElisionTable(t *testing.T) {
	names := []string{"Élodie", "Ugo", "Hélène"}
	g := Game{}
	for _, tc := range []struct {
		e    engine.Event
		want string
	}{
		{BadgePassed{From: 1, To: 0}, "Ugo passe la médaille d'honneur à Élodie."},
		{StayHomeGiven{From: 1, To: 2}, "Ugo donne le jeton «\u00a0Restez chez vous\u202f!\u00a0» à Hélène."},
		{Battle{Scotland: 9, England: 7, Winner: "scotland"}, "Combat\u00a0: Écosse 9, Angleterre 7\u00a0: victoire de l'Écosse."},
		{Battle{Scotland: 5, England: 7, Winner: "england"}, "Combat\u00a0: Écosse 5, Angleterre 7\u00a0: victoire de l'Angleterre."},
		{RoundStarted{Round: 2, Army: "balliols-plan", Name: "Balliol's Plan"}, "Manche 2\u00a0: la carte armée anglaise Le plan de Balliol est révélée."},
	} {
		if got := g.Describe(tc.e, names, "fr"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.e.EventType(), got, tc.want)
		}
	}
	// Italian's "a" before a name starting with a vowel is "ad" (a user
	// trial read "Tocca a Amélie"), before a consonant "a".
	for _, tc := range []struct {
		e    engine.Event
		want string
	}{
		{BadgePassed{From: 1, To: 0}, "Ugo passa la medaglia d'onore ad Élodie."},
		{BadgePassed{From: 0, To: 1}, "Élodie passa la medaglia d'onore ad Ugo."},
		{StayHomeGiven{From: 0, To: 3}, "Élodie dà il segnalino «Resta a casa!» a Bruno."},
	} {
		if got := g.Describe(tc.e, append(names, "Bruno"), "it"); got != tc.want {
			t.Errorf("it %s: %q, want %q", tc.e.EventType(), got, tc.want)
		}
	}
	e := cardError("bagpipes", 2, "L'aide de Lamberton", "effects[0].who", "awards_only", "scots")
	if got, want := e.message("fr"), "cards\u00a0: bagpipes[2] «\u00a0L'aide de Lamberton\u00a0», champ effects[0].who\u00a0: «\u00a0scots\u00a0» seulement sur une carte awards"; got != want {
		t.Errorf("setup error: %q, want %q", got, want)
	}
	if got, want := e.message("en"), `cards: bagpipes[2] "L'aide de Lamberton", field effects[0].who: "scots" only on an awards card`; got != want {
		t.Errorf("setup error: %q, want %q", got, want)
	}
}

// sameWords are, per language, the English catalog's words that may
// appear in its texts, each for a reason (and each must be a word of that
// language's catalog too, so the list cannot hide a missing translation):
// the proper names of the cards (Bruce, Wallace, Lamberton, ...), "la"
// and "france" (the card "Vive la France!" is French in English too),
// "cards" and "json" (the file name cards.json). In French, words that are
// French too: "or" (gold), "camp", "camps", "charge", "format",
// "gratitude", "influence", "plan", "fans", "phase", "vive"; the
// rulebook's own "supporter" and "supporters"; and the words of the two
// army cards whose printed English names the French rulebook keeps
// ("Irvine Capitulation", "Bruce Join Us Again !"). In Italian, words
// that are Italian too: "in", "per", "all" (all'accampamento), "file",
// "no"; and "round" (the Italian rulebooks' word).
var sameWords = map[string][]string{
	"fr": {"bruce", "bruces", "wallace", "lamberton", "comyns", "david", "balliol", "berwick", "dunbar", "stirling",
		"falkirk", "methven", "irvine", "eric", "ii", "vive", "la", "france", "cards", "json",
		"or", "camp", "camps", "charge", "format", "gratitude", "influence", "plan", "fans", "phase",
		"supporter", "supporters", "capitulation", "join", "us", "again"},
	"it": {"bruce", "wallace", "lamberton", "balliol", "berwick", "dunbar", "stirling", "falkirk", "methven", "irvine",
		"eric", "ii", "la", "cards", "json", "in", "per", "all", "file", "no", "round"},
}

// Over random whole games in French and Italian (every variant), no label,
// description, card text or name, explanation, option or summary holds a
// word of the English catalog, and no French text misses an elision
// before a name.
func TestNoEnglishInOtherLanguages(t *testing.T) {
	for _, lang := range []string{"fr", "it"} {
		if bad := i18ntest.AllowedWords(texts, lang, sameWords[lang]); len(bad) > 0 {
			t.Fatalf("%s: allowed words that are not the language's own: %v", lang, bad)
		}
	}
	viewTexts := func(st engine.State) []string {
		s := st.(*state)
		var out []string
		for seat := range s.Players() {
			v := s.View(seat).(View)
			if v.Army != nil {
				out = append(out, v.Army.Name, v.Army.Text)
			}
			for _, c := range v.Hand {
				out = append(out, c.Name, c.Text)
			}
			for _, e := range s.Explain(seat, s.Lang) {
				out = append(out, e.Text)
			}
		}
		return out
	}
	for i := range 2 * len(configs) {
		lang := i18n.Languages[1+i%2]
		c := configs[i%len(configs)]
		setup := engine.Setup{Players: c.players, Options: json.RawMessage(c.options), Seed: engine.Seed{byte(i), 7},
			Language: lang, Names: []string{"Élodie", "Ugo", "Chiara", "Hélène", "Olivier", "Anna"}[:c.players]}
		if err := enginetest.CheckTranslated(Game{}, texts, sameWords[lang], setup, uint64(i), viewTexts); err != nil {
			t.Errorf("%s game %d (%d players, %s): %v", lang, i, c.players, c.options, err)
		}
	}
	// The check finds an English text.
	if bad := i18ntest.UntranslatedWords(texts, []string{"Ugo joue Ransom."}, sameWords["fr"]); len(bad) != 1 || bad[0].Phrase != "ransom" {
		t.Errorf("an English word is not found: %v", bad)
	}
}

// A rejected move is explained in the game's language, counted words
// in their plural forms and card names in the language's.
func TestRuleErrorsInTheGamesLanguage(t *testing.T) {
	for lang, want := range map[string][3]string{
		"en": {"no decision of seat %d is awaited now", "you can relocate 1 to 3 units", "replenishment is compulsory: do one before ending your turn"},
		"fr": {"aucune décision de la place %d n'est attendue maintenant", "vous pouvez délocaliser de 1 à 3 unités", "le réapprovisionnement est obligatoire\u00a0: faites-en un avant de terminer votre tour"},
		"it": {"nessuna decisione del posto %d è attesa ora", "puoi spostare da 1 a 3 unità", "il rifornimento è obbligatorio: fanne uno prima di terminare il turno"},
	} {
		st, err := Game{}.New(engine.Setup{Players: 3, Seed: engine.Seed{4}, Language: lang})
		if err != nil {
			t.Fatal(err)
		}
		seat := st.ToMove()[0]
		other := (seat + 1) % 3
		check := func(what string, m Move, seat int, code, msg string) {
			t.Helper()
			_, err := st.Decide(seat, m)
			var re *engine.RuleError
			if !errors.As(err, &re) || re.Code != code || re.Message != msg {
				t.Errorf("%s: %s: %v, want %s: %s", lang, what, err, code, msg)
			}
		}
		check("wrong seat", mv(MoveEndTurn, nil), other, engine.CodeNotYourTurn, fmt.Sprintf(want[0], other))
		check("too many units", mv(MoveRelocate, func(m *Move) { m.Units = 9 }), seat, engine.CodeIllegalMove, want[1])
		check("end before replenishing", mv(MoveEndTurn, nil), seat, engine.CodeIllegalMove, want[2])
	}
	st, _ := Game{}.New(engine.Setup{Players: 3, Seed: engine.Seed{4}, Language: "fr"})
	s := st.(*state)
	seat := s.ToMove()[0]
	for _, c := range []struct {
		castle int
		want   string
	}{{0, "vous n'avez aucune unité à délocaliser dans votre château"}, {1, "vous pouvez délocaliser 1 unité"}} {
		s.P[seat].Castle = c.castle
		if _, err := s.Decide(seat, mv(MoveRelocate, func(m *Move) { m.Units = 2 })); err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("castle %d: %v, want %q", c.castle, err, c.want)
		}
	}
}

// The card texts count their amounts in the language's plural forms.
func TestEffectPluralTable(t *testing.T) {
	for _, tc := range []struct {
		e          Effect
		en, fr, it string
	}{
		{Effect{Kind: KindBagpipe, Amount: 1}, "You draw 1 bagpipe card.", "Vous piochez 1 carte cornemuse.", "Peschi 1 carta cornamusa."},
		{Effect{Kind: KindBagpipe, Amount: 2}, "You draw 2 bagpipe cards.", "Vous piochez 2 cartes cornemuse.", "Peschi 2 carte cornamusa."},
		{Effect{Kind: KindDiscardDagger, Amount: 1, Who: WhoOthers}, "Each other player discards 1 dagger card (the one with most daggers first).",
			"Chaque autre joueur défausse 1 carte dague (celle qui a le plus de dagues d'abord).", "Ogni altro giocatore scarta 1 carta pugnale (prima quella con più pugnali)."},
		{Effect{Kind: KindEnglandUnits, Amount: 1}, "England's army gets 1 more unit this round.", "L'armée anglaise compte 1 unité de plus cette manche.", "L'esercito inglese ha 1 unità in più in questo round."},
		{Effect{Kind: KindCampUnits, Amount: 1}, "You add up to 1 unit to your camp.", "Vous ajoutez jusqu'à 1 unité à votre camp.", "Aggiungi fino a 1 unità al tuo accampamento."},
		{Effect{Kind: KindCampUnits, Amount: 3, Who: WhoBadge}, "The holder of the badge of honour adds 3 units to their camp.",
			"Le détenteur de la médaille d'honneur ajoute 3 unités à son camp.", "Chi ha la medaglia d'onore aggiunge 3 unità al suo accampamento."},
		{Effect{Kind: KindGold, Amount: 1, Who: WhoScots, If: IfScotlandWon}, "If Scotland won, each supporter of Scotland gains 1 gold.",
			"Si l'Écosse a gagné, chaque supporter de l'Écosse reçoit 1 pièce d'or.", "Se la Scozia ha vinto, ogni sostenitore della Scozia riceve 1 moneta d'oro."},
		{Effect{Kind: KindLoseGold, Amount: 2, Who: WhoTarget}, "A player of your choice loses 2 gold.", "Un joueur de votre choix perd 2 pièces d'or.", "Un giocatore a tua scelta perde 2 monete d'oro."},
	} {
		for lang, want := range map[string]string{"en": tc.en, "fr": tc.fr, "it": tc.it} {
			if got := effectText(tc.e, lang, -1); got != want {
				t.Errorf("%s %+v: %q, want %q", lang, tc.e, got, want)
			}
		}
	}
}
