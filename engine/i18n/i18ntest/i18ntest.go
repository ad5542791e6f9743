// Package i18ntest finds text of the default language (English) left in
// a page or an email rendered in another language: the check behind the
// tests that render every page and every email in French and Italian.
//
// A text is untranslated when, trimmed of spaces and punctuation at its
// ends, it is one of the English catalog's phrases (see
// i18n.Catalog.Phrases), or when it holds an English phrase of three words
// or more. Names that are the same in both languages (game titles, words
// the languages share) are passed as allowed, each with its reason, and
// the allowed phrases must be the target language's own text too (see
// Allowed), so the list cannot hide a message that lacks its translation.
package i18ntest

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"pbem/engine/i18n"
)

// MinWords is the length from which an English phrase found inside a
// longer text counts as untranslated.
const MinWords = 3

// Leak is one untranslated text: the text as rendered and the English
// phrase found in it.
type Leak struct {
	Text, Phrase string
}

func (l Leak) String() string { return fmt.Sprintf("%q holds the English %q", l.Text, l.Phrase) }

// Untranslated returns the texts that are, or hold, a phrase of cat's
// default language that is not in allowed.
func Untranslated(cat *i18n.Catalog, texts, allowed []string) []Leak {
	var long []string
	short := map[string]bool{}
	for _, p := range cat.Phrases(i18n.Languages[0]) {
		if slices.Contains(allowed, p) {
			continue
		}
		short[trim(p)] = true
		if words(p) >= MinWords {
			long = append(long, p)
		}
	}
	var out []Leak
	for _, t := range texts {
		t = strings.Join(strings.Fields(t), " ")
		if k := trim(t); short[k] {
			out = append(out, Leak{Text: t, Phrase: k})
			continue
		}
		for _, p := range long {
			if strings.Contains(t, p) {
				out = append(out, Leak{Text: t, Phrase: p})
				break
			}
		}
	}
	return out
}

// Allowed checks that every allowed phrase is text of cat in lang as well
// as in the default language (a name or word both languages share), and
// returns the ones that are not.
func Allowed(cat *i18n.Catalog, lang string, allowed []string) []string {
	own := cat.Phrases(lang)
	var bad []string
	for _, a := range allowed {
		if !slices.Contains(own, a) {
			bad = append(bad, a)
		}
	}
	return bad
}

// trim removes spaces and punctuation at both ends.
func trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) })
}

// words counts the words of s that hold a letter.
func words(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}

// HTMLTexts returns the texts a reader meets in an HTML document: its
// text nodes (outside script and style) and its title, aria-label, alt and
// placeholder attributes, each trimmed, empty ones left out.
func HTMLTexts(doc string) ([]string, error) {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			add(n.Data)
		case html.ElementNode:
			if n.Data == "script" || n.Data == "style" {
				return
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "title", "aria-label", "alt", "placeholder":
					add(a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out, nil
}

// TextLines returns the non-empty lines of a plain text, trimmed.
func TextLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
