package i18ntest

import "regexp"

// reTightMark finds a high punctuation mark (":", ";", "?", "!") right
// after a word, or after a word and an ordinary space: French writes a
// no-break space there. Digits are left out, for the times ("10:57").
var reTightMark = regexp.MustCompile(`[\p{L})»] ?[:;?!]`)

// reQuoted is a text quoted in « », such as a word to type ("chat:"),
// which keeps its own marks.
var reQuoted = regexp.MustCompile(`«[^»]*»`)

// BreakingMarks returns the French texts (as HTMLTexts or TextLines give
// them, links left out) where ":", ";", "?" or "!" follows a word with no
// space or an ordinary one, where French puts a no-break space: the
// catalogs keep the rule (i18n.Check), this finds a mark a template or Go
// code writes after a translated label ("Adresse: …"), which should come
// from i18n.Colon. What « » quote is left out: a word to type ("chat:"). A mark at the start of a text is not judged: what
// comes before it is another text (a link's, a strong element's).
func BreakingMarks(texts []string) []string {
	var out []string
	for _, t := range texts {
		if reTightMark.MatchString(reQuoted.ReplaceAllString(reURL.ReplaceAllString(t, " "), " ")) {
			out = append(out, t)
		}
	}
	return out
}
