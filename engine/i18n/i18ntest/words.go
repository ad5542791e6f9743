package i18ntest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"pbem/engine/i18n"
)

// Words is the stricter check, for texts made of short catalog messages
// (the engines' labels and descriptions): it reports a translated text
// that holds any single word of the English catalog, where Untranslated
// needs a whole phrase or three words.

// splitWords splits s into lower-case words (runs of letters).
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// Words returns the words of two letters or more (a single letter tells
// no language) of cat's phrases in lang (see i18n.Catalog.Phrases),
// lower-case.
func Words(cat *i18n.Catalog, lang string) map[string]bool {
	set := map[string]bool{}
	for _, p := range cat.Phrases(lang) {
		for _, w := range splitWords(p) {
			if utf8.RuneCountInString(w) > 1 {
				set[w] = true
			}
		}
	}
	return set
}

// UntranslatedWords returns the texts that hold a word of cat's default
// language (Words) that is not in allowed, each with the first such word
// as its Phrase, in the order of texts and without repeats.
func UntranslatedWords(cat *i18n.Catalog, texts, allowed []string) []Leak {
	english := Words(cat, i18n.Languages[0])
	for _, w := range allowed {
		delete(english, strings.ToLower(w))
	}
	var out []Leak
	seen := map[string]bool{}
	for _, t := range texts {
		if seen[t] {
			continue
		}
		seen[t] = true
		for _, w := range splitWords(t) {
			if english[w] {
				out = append(out, Leak{Text: t, Phrase: w})
				break
			}
		}
	}
	return out
}

// AllowedWords checks that every allowed word is a word of cat in lang
// too (a name or word both languages share), and returns the ones that
// are not, so that an allow list cannot hide a missing translation.
func AllowedWords(cat *i18n.Catalog, lang string, allowed []string) []string {
	own := Words(cat, lang)
	var bad []string
	for _, w := range allowed {
		if !own[strings.ToLower(w)] {
			bad = append(bad, w)
		}
	}
	return bad
}

// MissedElisions returns the French texts where "de", "que", "le" or
// "la" stands before one of names that starts with a vowel or an h,
// unelided ("de Élodie" for "d'Élodie"), with the words at fault as
// Phrase, sorted by text.
func MissedElisions(texts, names []string) []Leak {
	var out []Leak
	seen := map[Leak]bool{}
	for _, n := range names {
		r, _ := utf8.DecodeRuneInString(n)
		if !strings.ContainsRune("aeiouyhàâäéèêëîïôöùûüœæ", unicode.ToLower(r)) {
			continue
		}
		for _, w := range []string{"de", "que", "le", "la", "De", "Que", "Le", "La"} {
			p := w + " " + n
			for _, t := range texts {
				if (strings.HasPrefix(t, p) || strings.Contains(t, " "+p) || strings.Contains(t, "("+p)) && !seen[Leak{t, p}] {
					seen[Leak{t, p}] = true
					out = append(out, Leak{Text: t, Phrase: p})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Leak) int { return strings.Compare(a.Text+"\x00"+a.Phrase, b.Text+"\x00"+b.Phrase) })
	return out
}
