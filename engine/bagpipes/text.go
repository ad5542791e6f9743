package bagpipes

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Languages the texts and labels are written in; langIndex maps a setup's
// language to its index here (anything else is English, index 0).
var languages = [...]string{"en", "fr", "it"}

// langIndex is the index of lang in languages, 0 (English) if unknown.
func langIndex(lang string) int {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "fr":
		return 1
	case "it":
		return 2
	}
	return 0
}

// normLang is lang if the engine speaks it, else "en".
func normLang(lang string) string { return languages[langIndex(lang)] }

// noun is a counted word: its singular and plural forms.
type noun struct{ one, many string }

// count writes "1 unit", "4 units".
func (n noun) count(k int) string {
	if k == 1 {
		return "1 " + n.one
	}
	return fmt.Sprintf("%d %s", k, n.many)
}

// effectWords is one language's vocabulary for card effects. A kind's
// template takes the counted amount (%[1]s) and, in its third-person form,
// the subject (%[2]s).
type effectWords struct {
	subject           map[string]string // who → subject, third person
	self, other       map[string]string // kind → template (player / subject)
	extra             map[string]string // kind → template without a subject
	nouns             map[string]noun   // kind → counted word (units otherwise)
	unit              noun              // units
	upTo              string            // before a variable amount of units
	militia, militiaN string            // raise militia once / %d times
	cond              map[string]string // if → prefix
}

// effectVocab holds the three languages' effect vocabularies, in the order
// of languages. The French follows the rulebook's words (unités, or, camp,
// château, cartes cornemuse, cartes dague, médaille d'honneur, supporter).
var effectVocab = [...]effectWords{
	{
		subject: map[string]string{
			WhoTarget: "a player of your choice", WhoOthers: "each other player", WhoAll: "each player",
			WhoScots: "each supporter of Scotland", WhoEnglish: "each supporter of England",
			WhoBadge: "the holder of the badge of honour",
		},
		self: map[string]string{
			KindGold: "you gain %[1]s", KindLoseGold: "you lose %[1]s",
			KindCastleUnits: "you add %[1]s to your castle", KindCampUnits: "you add %[1]s to your camp",
			KindRelocate:  "you move up to %[1]s from your castle to your camp",
			KindWithdraw:  "you move up to %[1]s from your camp back to your castle",
			KindLoseUnits: "you discard up to %[1]s from your camp",
			KindBagpipe:   "you draw %[1]s", KindDagger: "you draw %[1]s",
			KindDiscardDagger: "you discard %[1]s (the one with most daggers first)",
		},
		other: map[string]string{
			KindGold: "%[2]s gains %[1]s", KindLoseGold: "%[2]s loses %[1]s",
			KindCastleUnits: "%[2]s adds %[1]s to their castle", KindCampUnits: "%[2]s adds %[1]s to their camp",
			KindRelocate:  "%[2]s moves up to %[1]s from their castle to their camp",
			KindWithdraw:  "%[2]s moves up to %[1]s from their camp back to their castle",
			KindLoseUnits: "%[2]s discards up to %[1]s from their camp",
			KindBagpipe:   "%[2]s draws %[1]s", KindDagger: "%[2]s draws %[1]s",
			KindDiscardDagger: "%[2]s discards %[1]s (the one with most daggers first)",
		},
		extra: map[string]string{
			KindScotlandUnits: "add %[1]s to Scotland's camp",
			KindEnglandUnits:  "England's army gets %[1]s this round",
			KindSwitch:        "take back your choice token and play the other one instead",
		},
		nouns: map[string]noun{
			KindGold: {"gold", "gold"}, KindLoseGold: {"gold", "gold"},
			KindBagpipe: {"bagpipe card", "bagpipe cards"}, KindDagger: {"dagger card", "dagger cards"},
			KindDiscardDagger: {"dagger card", "dagger cards"}, KindEnglandUnits: {"more unit", "more units"},
		},
		unit:     noun{"unit", "units"},
		upTo:     "up to ",
		militia:  "raise militia (1 unit to every camp and to Scotland's camp)",
		militiaN: "raise militia %d times (1 unit to every camp and to Scotland's camp, each time)",
		cond: map[string]string{
			IfScotlandWon: "if Scotland won, ", IfEnglandWon: "if England won, ",
			IfSupportedScotland: "if you support Scotland, ", IfSupportedEngland: "if you support England, ",
			IfBadge: "if you hold the badge of honour, ",
		},
	},
	{
		subject: map[string]string{
			WhoTarget: "un joueur de votre choix", WhoOthers: "chaque autre joueur", WhoAll: "chaque joueur",
			WhoScots: "chaque supporter de l'Écosse", WhoEnglish: "chaque supporter de l'Angleterre",
			WhoBadge: "le détenteur de la médaille d'honneur",
		},
		self: map[string]string{
			KindGold: "vous recevez %[1]s", KindLoseGold: "vous perdez %[1]s",
			KindCastleUnits: "vous ajoutez %[1]s à votre château", KindCampUnits: "vous ajoutez %[1]s à votre camp",
			KindRelocate:  "vous délocalisez jusqu'à %[1]s de votre château vers votre camp",
			KindWithdraw:  "vous ramenez jusqu'à %[1]s de votre camp vers votre château",
			KindLoseUnits: "vous défaussez jusqu'à %[1]s de votre camp",
			KindBagpipe:   "vous piochez %[1]s", KindDagger: "vous piochez %[1]s",
			KindDiscardDagger: "vous défaussez %[1]s (celle qui a le plus de dagues d'abord)",
		},
		other: map[string]string{
			KindGold: "%[2]s reçoit %[1]s", KindLoseGold: "%[2]s perd %[1]s",
			KindCastleUnits: "%[2]s ajoute %[1]s à son château", KindCampUnits: "%[2]s ajoute %[1]s à son camp",
			KindRelocate:  "%[2]s délocalise jusqu'à %[1]s de son château vers son camp",
			KindWithdraw:  "%[2]s ramène jusqu'à %[1]s de son camp vers son château",
			KindLoseUnits: "%[2]s défausse jusqu'à %[1]s de son camp",
			KindBagpipe:   "%[2]s pioche %[1]s", KindDagger: "%[2]s pioche %[1]s",
			KindDiscardDagger: "%[2]s défausse %[1]s (celle qui a le plus de dagues d'abord)",
		},
		extra: map[string]string{
			KindScotlandUnits: "ajoutez %[1]s au camp de l'Écosse",
			KindEnglandUnits:  "l'armée anglaise compte %[1]s cette manche",
			KindSwitch:        "reprenez votre jeton de choix et jouez l'autre à la place",
		},
		nouns: map[string]noun{
			KindGold: {"or", "ors"}, KindLoseGold: {"or", "ors"},
			KindBagpipe: {"carte cornemuse", "cartes cornemuse"}, KindDagger: {"carte dague", "cartes dague"},
			KindDiscardDagger: {"carte dague", "cartes dague"}, KindEnglandUnits: {"unité de plus", "unités de plus"},
		},
		unit:     noun{"unité", "unités"},
		upTo:     "jusqu'à ",
		militia:  "levez une milice (1 unité dans chaque camp et dans le camp de l'Écosse)",
		militiaN: "levez une milice %d fois (1 unité dans chaque camp et dans le camp de l'Écosse, à chaque fois)",
		cond: map[string]string{
			IfScotlandWon: "si l'Écosse a gagné, ", IfEnglandWon: "si l'Angleterre a gagné, ",
			IfSupportedScotland: "si vous soutenez l'Écosse, ", IfSupportedEngland: "si vous soutenez l'Angleterre, ",
			IfBadge: "si vous détenez la médaille d'honneur, ",
		},
	},
	{
		subject: map[string]string{
			WhoTarget: "un giocatore a tua scelta", WhoOthers: "ogni altro giocatore", WhoAll: "ogni giocatore",
			WhoScots: "ogni sostenitore della Scozia", WhoEnglish: "ogni sostenitore dell'Inghilterra",
			WhoBadge: "chi ha la medaglia d'onore",
		},
		self: map[string]string{
			KindGold: "ricevi %[1]s", KindLoseGold: "perdi %[1]s",
			KindCastleUnits: "aggiungi %[1]s al tuo castello", KindCampUnits: "aggiungi %[1]s al tuo accampamento",
			KindRelocate:  "sposti fino a %[1]s dal tuo castello al tuo accampamento",
			KindWithdraw:  "riporti fino a %[1]s dal tuo accampamento al tuo castello",
			KindLoseUnits: "scarti fino a %[1]s dal tuo accampamento",
			KindBagpipe:   "peschi %[1]s", KindDagger: "peschi %[1]s",
			KindDiscardDagger: "scarti %[1]s (prima quella con più pugnali)",
		},
		other: map[string]string{
			KindGold: "%[2]s riceve %[1]s", KindLoseGold: "%[2]s perde %[1]s",
			KindCastleUnits: "%[2]s aggiunge %[1]s al suo castello", KindCampUnits: "%[2]s aggiunge %[1]s al suo accampamento",
			KindRelocate:  "%[2]s sposta fino a %[1]s dal suo castello al suo accampamento",
			KindWithdraw:  "%[2]s riporta fino a %[1]s dal suo accampamento al suo castello",
			KindLoseUnits: "%[2]s scarta fino a %[1]s dal suo accampamento",
			KindBagpipe:   "%[2]s pesca %[1]s", KindDagger: "%[2]s pesca %[1]s",
			KindDiscardDagger: "%[2]s scarta %[1]s (prima quella con più pugnali)",
		},
		extra: map[string]string{
			KindScotlandUnits: "aggiungi %[1]s all'accampamento della Scozia",
			KindEnglandUnits:  "l'esercito inglese ha %[1]s in questo round",
			KindSwitch:        "riprendi il tuo segnalino di scelta e gioca l'altro al suo posto",
		},
		nouns: map[string]noun{
			KindGold: {"moneta d'oro", "monete d'oro"}, KindLoseGold: {"moneta d'oro", "monete d'oro"},
			KindBagpipe: {"carta cornamusa", "carte cornamusa"}, KindDagger: {"carta pugnale", "carte pugnale"},
			KindDiscardDagger: {"carta pugnale", "carte pugnale"}, KindEnglandUnits: {"unità in più", "unità in più"},
		},
		unit:     noun{"unità", "unità"},
		upTo:     "fino a ",
		militia:  "arruola la milizia (1 unità in ogni accampamento e nell'accampamento della Scozia)",
		militiaN: "arruola la milizia %d volte (1 unità in ogni accampamento e nell'accampamento della Scozia, ogni volta)",
		cond: map[string]string{
			IfScotlandWon: "se la Scozia ha vinto, ", IfEnglandWon: "se l'Inghilterra ha vinto, ",
			IfSupportedScotland: "se sostieni la Scozia, ", IfSupportedEngland: "se sostieni l'Inghilterra, ",
			IfBadge: "se hai la medaglia d'onore, ",
		},
	},
}

// effectsText writes a card's effects as sentences in language li.
func effectsText(effs []Effect, li int) string {
	parts := make([]string, 0, len(effs))
	for _, e := range effs {
		parts = append(parts, effectText(e, li))
	}
	return strings.Join(parts, " ")
}

// effectText writes one effect as a sentence in language li.
func effectText(e Effect, li int) string {
	w := &effectVocab[li]
	n, ok := w.nouns[e.Kind]
	if !ok {
		n = w.unit
	}
	amount := n.count(e.Amount)
	if isVariable(e) && (e.Kind == KindCastleUnits || e.Kind == KindCampUnits) {
		amount = w.upTo + amount
	}
	var t string
	switch {
	case e.Kind == KindMilitia && e.Amount <= 1:
		t = w.militia
	case e.Kind == KindMilitia:
		t = fmt.Sprintf(w.militiaN, e.Amount)
	case w.extra[e.Kind] != "":
		t = w.extra[e.Kind]
		if strings.Contains(t, "%") {
			t = fmt.Sprintf(t, amount)
		}
	case e.Who == "" || e.Who == WhoSelf:
		t = fmt.Sprintf(w.self[e.Kind], amount)
	default:
		t = fmt.Sprintf(w.other[e.Kind], amount, w.subject[e.Who])
	}
	return capitalize(w.cond[e.If]+t) + "."
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
