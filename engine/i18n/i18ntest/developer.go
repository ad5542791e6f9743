package i18ntest

import "regexp"

// developerStrings are what a player must never read outside the audit
// page (issue #31): the event log's numbers and actor ids, hashes, and
// what Go's formatting and templates print for a missing or mistyped
// value. Each has the reason the check reports.
var developerStrings = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`(?i)\bversion[ei]?\s*\d`), "a version number"},
	{regexp.MustCompile(`\b(bot|seat):[a-z0-9]`), "an actor id"},
	{regexp.MustCompile(`\bsystem\b`), "the actor id system"},
	{regexp.MustCompile(`\badmin\b(?:[^ ]|$| [^lp]| l[^i]| p[^a])`), "the actor id admin"},
	{regexp.MustCompile(`\b[0-9a-f]{12,}\b`), "a hash"},
	{regexp.MustCompile(`\b[a-z2-7]*[2-7][a-z2-7]*\b`), ""}, // a game id, checked by length below
	{regexp.MustCompile(`%!|<nil>|<no value>|map\[|\{\{|\}\}`), "a Go or template string"},
}

// reURL is a link written out in a text (an email's text part, a link's
// text, a noscript element's markup): its tokens and ids are not read as
// words.
var reURL = regexp.MustCompile(`https?://\S+|/[a-z]+/\S*\?token=\S+|href="[^"]*"`)

// DeveloperString is one text that shows a player what only developers
// should see: the text and why.
type DeveloperString struct {
	Text, Why string
}

func (d DeveloperString) String() string { return d.Why + " in " + `"` + d.Text + `"` }

// DeveloperStrings returns the texts (as HTMLTexts or TextLines give
// them, links left out) that hold a version number ("version 2",
// "Versione 14"), an actor id ("bot:normal", "seat:1", "system", "admin"
// other than in "admin link" or "admin page"), a hash or a game id (hex
// from 12 digits, 16 base32 characters), or a string Go or a template
// prints for a missing value ("%!", "<nil>", "map[", "{{").
func DeveloperStrings(texts []string) []DeveloperString {
	var out []DeveloperString
	for _, t := range texts {
		s := reURL.ReplaceAllString(t, " ")
		for _, d := range developerStrings {
			if d.why == "" {
				for _, m := range d.re.FindAllString(s, -1) {
					if len(m) == 16 {
						out = append(out, DeveloperString{Text: t, Why: "a game id"})
						break
					}
				}
				continue
			}
			if d.re.MatchString(s) {
				out = append(out, DeveloperString{Text: t, Why: d.why})
			}
		}
	}
	return out
}
