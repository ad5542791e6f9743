package bagpipes

import (
	"embed"
	"strings"
	"unicode"
	"unicode/utf8"

	"pbem/engine/i18n"
)

//go:embed i18n/*.json
var catalogFS embed.FS

// texts is the engine's catalog: every move label, event description,
// card text and name, option, setup error and result summary in en, fr
// and it (see engine/i18n). The French follows the rulebook's words
// (unités, pièces d'or, délocaliser, défausser, camp, château, cartes cornemuse, cartes dague, médaille
// d'honneur, supporter, and the cards' names as its "Références
// historiques" give them: "L'aide de Lamberton", "Le plan de Balliol", ...);
// there is no Italian rulebook, the Italian is ours.
var texts = i18n.MustLoad(catalogFS, "i18n", "bagpipes")

// englishNames are the catalog's English card names by id, read once.
var englishNames = func() map[string]string {
	m := map[string]string{}
	for _, key := range texts.Keys() {
		if id, ok := strings.CutPrefix(key, "card."); ok {
			m[id] = texts.T("en", key)
		}
	}
	return m
}()

// cardName is a card's name in lang: the catalog's when the card is the
// default set's (its id is known and its name is the English one there),
// else the name the card set gives (a custom card keeps its own).
func cardName(lang, id, name string) string {
	if en, ok := englishNames[id]; ok && en == name {
		return texts.T(lang, "card."+id)
	}
	return name
}

// countKey is the counted noun of an effect kind's amount.
var countKey = map[string]string{
	KindGold: "count.gold", KindLoseGold: "count.gold",
	KindBagpipe: "count.bagpipe", KindDagger: "count.dagger_card", KindDiscardDagger: "count.dagger_card",
	KindEnglandUnits: "count.more_unit",
}

// effectsText writes a card's effects as sentences in lang: the card's
// own text.
func effectsText(effs []Effect, lang string) string { return playText(effs, lang, -1) }

// playText writes a card's effects as sentences in lang as a move plays
// it with units (-1: no units chosen, the card's own text): a variable
// unit effect counts the units chosen, not "up to" its amount, so that the
// moves of one card read apart by what they do.
func playText(effs []Effect, lang string, units int) string {
	parts := make([]string, 0, len(effs))
	for _, e := range effs {
		parts = append(parts, effectText(e, lang, units))
	}
	return strings.Join(parts, " ")
}

// effectText writes one effect as a sentence in lang: the condition, then
// what happens to the player (self), to others (other, with a subject) or
// to the table, with the amount counted in the kind's noun: "up to" it
// where the player chooses how many units (a variable effect, or another
// player's relocation or withdrawal), the units chosen where a move chose
// them (units >= 0).
func effectText(e Effect, lang string, units int) string {
	p := texts.In(lang)
	key, ok := countKey[e.Kind]
	if !ok {
		key = "count.unit"
	}
	n, chosen := e.Amount, units >= 0 && isVariable(e)
	if chosen {
		n = units
	}
	amount := p.T(key, n)
	if !chosen && (isVariable(e) || e.Kind == KindRelocate || e.Kind == KindWithdraw) {
		amount = p.T("effect.up_to", amount)
	}
	var t string
	switch {
	case e.Kind == KindMilitia:
		t = p.T("effect.militia", max(e.Amount, 1))
	case e.Kind == KindSwitch:
		t = p.T("effect.table.switch")
	case texts.Has("effect.table." + e.Kind):
		t = p.T("effect.table."+e.Kind, amount)
	case e.Who == "" || e.Who == WhoSelf:
		t = p.T("effect.self."+e.Kind, amount)
	default:
		t = p.T("effect.other."+e.Kind, amount, p.T("subject."+e.Who))
	}
	if e.If != "" {
		t = p.T("cond."+e.If) + t
	}
	return capitalize(t) + "."
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
