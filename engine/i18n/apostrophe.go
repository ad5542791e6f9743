package i18n

import (
	"fmt"
	"strings"
)

// curlyApostrophe is the typographic apostrophe. French and Italian
// messages write the straight one ("qu'il", "l'invito"), as most of them
// always did and as the elision rules write it (elideFrench): one email
// with both read as two hands at work.
const curlyApostrophe = "\u2019"

// checkApostrophes reports a French or Italian message (each of its
// plural forms) that writes the curly apostrophe.
func (c *Catalog) checkApostrophes(lang, key string, e entry) error {
	texts := []string{e.format}
	for _, f := range e.forms {
		texts = append(texts, f)
	}
	for _, s := range texts {
		if strings.Contains(s, curlyApostrophe) {
			return fmt.Errorf(`%s/%s: %q writes the curly apostrophe "’": write the straight one "'", as every %s message does`, c.name, lang, key, lang)
		}
	}
	return nil
}
