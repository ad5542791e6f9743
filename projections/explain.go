package projections

import "pbem/engine/i18n"

// ExplainError says why a request was refused, for a page or an email in
// lang: message, the service's own message, in the default language (it
// is written in it); in another, the catalog's sentence for code
// ("error.<code>"), or message if there is none (an empty code: see
// events/play.ServiceErrorCode).
func ExplainError(lang, code, message string) string {
	p := texts.In(lang)
	if p.Lang() == i18n.Languages[0] || !texts.Has("error."+code) {
		return message
	}
	return p.T("error." + code)
}
