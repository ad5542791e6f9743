package projections

import "pbem/engine/i18n"

// word is the text of prefix+w (a timeout policy, a bot level) in p's
// language, or w itself if the catalog has no such key.
func word(p i18n.Printer, prefix, w string) string {
	if texts.Has(prefix + w) {
		return p.T(prefix + w)
	}
	return w
}
