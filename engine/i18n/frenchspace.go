package i18n

import (
	"fmt"
	"regexp"
)

// breakingSpace finds an ordinary space where French typography puts a
// non-breaking one: before ":", ";", "?", "!" and "»", after "«". A line
// may break at an ordinary space, and on a phone a colon then starts a
// line alone. The catalogs write U+00A0 (no-break space) before ":" and
// inside « », U+202F (narrow no-break space) before ";", "?" and "!".
var breakingSpace = regexp.MustCompile(` [:;?!»]|« `)

// checkFrenchSpaces reports a French message (each of its plural forms)
// with an ordinary space before a high punctuation mark.
func (c *Catalog) checkFrenchSpaces(key string, e entry) error {
	texts := []string{e.format}
	for _, f := range e.forms {
		texts = append(texts, f)
	}
	for _, s := range texts {
		if m := breakingSpace.FindString(s); m != "" {
			return fmt.Errorf(`%s/fr: %q has an ordinary space in %q, where a line may break: write U+00A0 before ":" and inside « », U+202F before ";", "?" and "!"`, c.name, key, m)
		}
	}
	return nil
}
