package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Languages are the languages pbem speaks, the first being the default:
// the fallback for any other language and for a key a language lacks.
var Languages = []string{"en", "fr", "it"}

// Supported reports whether pbem speaks lang.
func Supported(lang string) bool { return slices.Contains(Languages, lang) }

// Norm is lang if pbem speaks it, else the default language.
func Norm(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if Supported(lang) {
		return lang
	}
	return Languages[0]
}

// A Catalog is one domain's messages in every language. It is safe for
// concurrent use once loaded.
type Catalog struct {
	name     string
	msgs     map[string]map[string]entry // lang → key → message
	printers map[string]*message.Printer
}

// entry is one message as read: a format, or plural forms chosen by the
// Arg-th argument (1-based).
type entry struct {
	format string
	arg    int
	forms  map[string]string
	// argc is how many arguments format takes (its highest index):
	// x/text ignores the others, where fmt would print them as EXTRA.
	argc int
}

// UnmarshalJSON reads a string or an object of plural forms.
func (e *entry) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.format)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("a message is a string or an object of plural forms: %w", err)
	}
	e.arg, e.forms = 1, map[string]string{}
	for k, v := range raw {
		if k == "arg" {
			if err := json.Unmarshal(v, &e.arg); err != nil || e.arg < 1 {
				return fmt.Errorf(`"arg" is the 1-based index of the counted argument`)
			}
			continue
		}
		if !validForm(k) {
			return fmt.Errorf("%q is not a CLDR plural form (zero, one, two, few, many, other, =N)", k)
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("plural form %q: %w", k, err)
		}
		e.forms[k] = s
	}
	if _, ok := e.forms["other"]; !ok {
		return fmt.Errorf(`plural forms need "other"`)
	}
	return nil
}

// formNames are the CLDR plural categories in x/text's order.
var formNames = map[string]plural.Form{
	"other": plural.Other, "zero": plural.Zero, "one": plural.One,
	"two": plural.Two, "few": plural.Few, "many": plural.Many,
}

func validForm(k string) bool {
	if _, ok := formNames[k]; ok {
		return true
	}
	if strings.HasPrefix(k, "=") {
		var n int
		_, err := fmt.Sscanf(k[1:], "%d", &n)
		return err == nil
	}
	return false
}

// Load reads dir/<lang>.json for every language in Languages from fsys.
// name names the catalog in errors ("pages", "emails", "lords").
func Load(fsys fs.FS, dir, name string) (*Catalog, error) {
	c := &Catalog{name: name, msgs: map[string]map[string]entry{}, printers: map[string]*message.Printer{}}
	b := catalog.NewBuilder(catalog.Fallback(language.Make(Languages[0])))
	for _, lang := range Languages {
		raw, err := fs.ReadFile(fsys, path.Join(dir, lang+".json"))
		if err != nil {
			return nil, fmt.Errorf("i18n %s: %w", name, err)
		}
		var m map[string]entry
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("i18n %s/%s.json: %w", name, lang, err)
		}
		tag := language.Make(lang)
		for key, e := range m {
			for n := range verbs(e.format) {
				e.argc = max(e.argc, n)
			}
			m[key] = e
			if err := b.Set(tag, key, e.message()); err != nil {
				return nil, fmt.Errorf("i18n %s/%s.json %q: %w", name, lang, key, err)
			}
		}
		c.msgs[lang] = m
	}
	for _, lang := range Languages {
		c.printers[lang] = message.NewPrinter(language.Make(lang), message.Catalog(b))
	}
	return c, nil
}

// MustLoad is Load for catalogs embedded in the binary, where an error is
// a programming error caught by the owner's tests.
func MustLoad(fsys fs.FS, dir, name string) *Catalog {
	c, err := Load(fsys, dir, name)
	if err != nil {
		panic(err)
	}
	return c
}

// message turns an entry into x/text's catalog message.
func (e entry) message() catalog.Message {
	if e.forms == nil {
		return catalog.String(e.format)
	}
	keys := make([]string, 0, len(e.forms))
	for k := range e.forms {
		if k != "other" {
			keys = append(keys, k)
		}
	}
	// Exact values first, then the categories, "other" last: Selectf
	// takes the first case that matches.
	sort.Slice(keys, func(i, j int) bool {
		ei, ej := strings.HasPrefix(keys[i], "="), strings.HasPrefix(keys[j], "=")
		if ei != ej {
			return ei
		}
		return keys[i] < keys[j]
	})
	keys = append(keys, "other")
	cases := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		cases = append(cases, k, e.forms[k])
	}
	return plural.Selectf(e.arg, "%d", cases...)
}

// Name is the catalog's name, as given to Load.
func (c *Catalog) Name() string { return c.name }

// Has reports whether the default language has key.
func (c *Catalog) Has(key string) bool {
	_, ok := c.msgs[Languages[0]][key]
	return ok
}

// Variant is key's variant for variant (key + "." + variant, a game's own
// wording, say) when the catalog has one, else key: a message whose words
// differ by game, such as the rulebooks' name for a round (Lords of
// Scotland's Italian rulebook says "schermaglia").
func (c *Catalog) Variant(key, variant string) string {
	if v := key + "." + variant; c.Has(v) {
		return v
	}
	return key
}

// Keys lists the default language's keys, sorted.
func (c *Catalog) Keys() []string {
	keys := make([]string, 0, len(c.msgs[Languages[0]]))
	for k := range c.msgs[Languages[0]] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// T formats the message key in lang with args. An unknown language is
// the default one; an unknown key formats as itself, so a missing
// translation shows rather than breaks a page (Check keeps that out of
// the catalogs pbem ships).
func (c *Catalog) T(lang, key string, args ...any) string {
	lang = Norm(lang)
	if lang == "fr" || lang == "it" {
		args = markArgs(args)
	}
	s, ok := c.plain(lang, key, args)
	if !ok {
		s = c.printers[lang].Sprintf(key, args...)
	}
	switch lang {
	case "fr":
		s = elideFrench(s)
	case "it":
		s = addEuphonicD(s)
	}
	return s
}

// plain formats key in lang with fmt when x/text would write the same
// text: a message without plural forms (x/text is needed to select a
// form) whose arguments are all strings or integers from 0 to 999 (x/text
// localizes numbers: digit grouping from 1,000 on). It reports false
// otherwise, and for a key that lang and the default language lack.
//
// Most messages are such, the moves' labels above all: in a CPU profile
// of the peers load test (bench/peers), x/text's Sprintf was 8% of the
// server's time, nearly all of it the labels of the legal moves in views
// and emails; fmt formats them in about a quarter of that. Check makes
// sure, for every message of a catalog, that both ways agree.
func (c *Catalog) plain(lang, key string, args []any) (string, bool) {
	e, ok := c.msgs[lang][key]
	if !ok {
		e, ok = c.msgs[Languages[0]][key]
	}
	if !ok || e.forms != nil || len(args) < e.argc {
		return "", false
	}
	args = args[:e.argc]
	for _, a := range args {
		switch v := a.(type) {
		case string:
		case int:
			if v < 0 || v > 999 {
				return "", false
			}
		default:
			return "", false
		}
	}
	return fmt.Sprintf(e.format, args...), true
}

// Printer is the catalog bound to one language, for code that formats
// many texts in the same language (a page, an email).
type Printer struct {
	c    *Catalog
	lang string
}

// In binds the catalog to lang (normalized: see Norm).
func (c *Catalog) In(lang string) Printer { return Printer{c: c, lang: Norm(lang)} }

// Lang is the printer's language.
func (p Printer) Lang() string { return p.lang }

// T formats key in the printer's language: see Catalog.T.
func (p Printer) T(key string, args ...any) string { return p.c.T(p.lang, key, args...) }

// verb matches a fmt verb of a message, with its flags and argument index.
var verb = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0-9.]*(?:\[\d+\])?[a-zA-Z%]`)

// Phrases lists the literal texts of lang's messages (every plural form's
// too): the runs of text between substitutions, trimmed, that hold a
// letter, sorted and without repeats. Tests use them to find one
// language's text left in a page or an email of another.
func (c *Catalog) Phrases(lang string) []string {
	set := map[string]bool{}
	add := func(format string) {
		for _, part := range verb.Split(format, -1) {
			part = strings.TrimSpace(part)
			if strings.IndexFunc(part, unicode.IsLetter) >= 0 {
				set[part] = true
			}
		}
	}
	for _, e := range c.msgs[Norm(lang)] {
		if e.forms == nil {
			add(e.format)
		}
		for _, f := range e.forms {
			add(f)
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
