// Package i18n is pbem's one translation mechanism: the pages, the emails
// and the engines' labels all format their texts through a Catalog.
//
// A Catalog is one domain's messages (the pages', the emails', one
// engine's) in every language pbem speaks, read from one JSON file per
// language (en.json, fr.json, it.json) that the owning package embeds. A
// message is a fmt format ("Waiting for %s."; "%[2]s played %[1]s" where
// word order differs), or an object of CLDR plural forms selected by one
// argument:
//
//	"cards": {"one": "%d card", "other": "%d cards"}
//	"units": {"arg": 2, "one": "%[1]s raises %[2]d unit", "other": "%[1]s raises %[2]d units"}
//
// The forms are CLDR's ("zero", "one", "two", "few", "many", "other", and
// exact values such as "=0"); golang.org/x/text/feature/plural picks them by
// the language's rules, so French "one" covers 0 and 1 and Italian's does
// not. Formatting goes through golang.org/x/text/message, so numbers are
// written the language's way.
//
// French elision is a rule of the mechanism, not of each call site: where a
// French message puts "de", "que", "le", "la", "je", "ne", "se" or
// "lorsque"/"puisque"/"jusque" right before a substituted string that starts
// with a vowel or a mute h, the word is elided ("En attente de %s" with
// "Élodie" gives "En attente d'Élodie"). Static text is the translator's.
// So is Italian's euphonic d: where an Italian message puts "a" or "e"
// right before a substituted string that starts with a vowel, accented
// or not, the word takes its d ("Tocca a %s" with "Amélie" gives "Tocca
// ad Amélie", "%s e %s" with "Anna" and "Élodie" gives "Anna ed Élodie";
// "Tocca a Giulia" stays).
//
// Check reports a catalog whose languages do not have the same keys, the
// same arguments per key, or a plural form the language never selects
// without "other", and a French message with an ordinary space before
// ":", ";", "?", "!" or "»" or after "«", where a line could break (on a
// phone, a colon alone at a line's start): the catalogs write U+00A0
// before ":" and inside « », U+202F before ";", "?" and "!" (as "\u00a0"
// and "\u202f", which show where they are), and a French or Italian
// message with the curly apostrophe (they write "'"); every owner has a
// test that calls it.
//
// A template or Go code that puts a translated label before its value
// writes Colon(lang) between them (Printer.Label: "Adresse\u00a0: " in
// French), never ": " of its own; i18ntest.BreakingMarks finds one left
// in a French page or email.
//
// The package lives under engine because the engines are the innermost
// layer and use it for their labels; it imports nothing of pbem's and
// does no I/O beyond the fs.FS it is given.
package i18n
