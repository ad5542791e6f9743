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

// powerText is the short text of a clan's power in lang, capitalised as a
// sentence ("" for no clan).
func powerText(c Clan, lang string) string {
	if c == noClan || int(c) >= clanCount {
		return ""
	}
	return texts.T(lang, "power."+c.String())
}

// effectText is the lower-case summary of a power used, as an event
// description names it ("" for no clan).
func effectText(c Clan, lang string) string {
	if c == noClan || int(c) >= clanCount {
		return ""
	}
	return texts.T(lang, "effect."+c.String())
}

// cardName is the name of the card of rank in lang ("Scott 9"; clans keep
// their names in every rulebook), or "a card" in lang for no valid rank.
func (d *deck) cardName(rank int, lang string) string {
	if d == nil || !d.valid(rank) {
		return texts.T(lang, "card.unknown")
	}
	return d.info[rank].name
}
