package lords

import (
	"embed"

	"pbem/engine/i18n"
)

//go:embed i18n/*.json
var catalogFS embed.FS

// texts is the engine's catalog: every move label, event description,
// prompt, power, option and result summary in en, fr and it (see
// engine/i18n). The French follows the 2015 rulebook's words (recrue,
// allié, engager, partisan, manche), the Italian the Italian summary's
// (schierare, carta clan, supporter, schermaglia).
var texts = i18n.MustLoad(catalogFS, "i18n", "lords")

// powerTexts and effectTexts hold each clan's power, as a sentence and as
// an event names it, by language: catalog texts without arguments,
// formatted once (a view names the power of every card it shows).
var powerTexts, effectTexts = clanTexts("power."), clanTexts("effect.")

// clanTexts formats the catalog's prefix+clan texts in every language.
func clanTexts(prefix string) map[string][clanCount]string {
	out := map[string][clanCount]string{}
	for _, lang := range i18n.Languages {
		var t [clanCount]string
		for c := Scott; int(c) < clanCount; c++ {
			t[c] = texts.T(lang, prefix+c.String())
		}
		out[lang] = t
	}
	return out
}

// powerText is the short text of a clan's power in lang, capitalised as a
// sentence ("" for no clan).
func powerText(c Clan, lang string) string {
	if int(c) >= clanCount {
		return ""
	}
	return powerTexts[i18n.Norm(lang)][c]
}

// effectText is the lower-case summary of a power used, as an event
// description names it ("" for no clan).
func effectText(c Clan, lang string) string {
	if int(c) >= clanCount {
		return ""
	}
	return effectTexts[i18n.Norm(lang)][c]
}

// cardName is the name of the card of rank in lang ("Scott 9"; clans keep
// their names in every rulebook), or "a card" in lang for no valid rank.
func (d *deck) cardName(rank int, lang string) string {
	if d == nil || !d.valid(rank) {
		return texts.T(lang, "card.unknown")
	}
	return d.info[rank].name
}
