package i18n

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Check reports every way the catalog's languages disagree: a key missing
// from a language or present only there, a message whose arguments differ
// from the default language's, a counted message written without plural
// forms, a French message with an ordinary space before ":", ";", "?",
// "!" or "»" or after "«" (checkFrenchSpaces), a French or Italian
// message with the curly apostrophe (checkApostrophes). (A plural form the language never selects is refused by Load:
// x/text knows each language's forms.) Owners call it from a test.
func (c *Catalog) Check() error {
	var errs []error
	base := c.msgs[Languages[0]]
	for _, lang := range Languages {
		m := c.msgs[lang]
		for _, key := range sortedKeys(m) {
			if _, ok := base[key]; !ok && lang != Languages[0] {
				errs = append(errs, fmt.Errorf("%s/%s: %q is not in %s", c.name, lang, key, Languages[0]))
			}
		}
		for _, key := range sortedKeys(base) {
			e, ok := m[key]
			if !ok {
				errs = append(errs, fmt.Errorf("%s/%s: %q is missing", c.name, lang, key))
				continue
			}
			b := base[key]
			if got, want := e.args(), b.args(); !slices.Equal(got, want) {
				errs = append(errs, fmt.Errorf("%s/%s: %q uses arguments %v, %s uses %v", c.name, lang, key, got, Languages[0], want))
			}
			if (b.forms == nil) != (e.forms == nil) {
				errs = append(errs, fmt.Errorf("%s/%s: %q must be written with plural forms in every language or in none", c.name, lang, key))
				continue
			}
			if err := c.checkPlain(lang, key, e); err != nil {
				errs = append(errs, err)
			}
			if lang == "fr" {
				if err := c.checkFrenchSpaces(key, e); err != nil {
					errs = append(errs, err)
				}
			}
			if lang == "fr" || lang == "it" {
				if err := c.checkApostrophes(lang, key, e); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// args are the 1-based argument indexes a message formats, sorted.
func (e entry) args() []int {
	set := map[int]bool{}
	if e.forms == nil {
		for n := range verbs(e.format) {
			set[n] = true
		}
	} else {
		set[e.arg] = true
		for _, f := range e.forms {
			for n := range verbs(f) {
				set[n] = true
			}
		}
	}
	out := make([]int, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

// verbs maps the 1-based argument indexes of format's verbs to the verbs'
// letters, following fmt's rules: %[n]v sets the index, a verb without one
// takes the next.
func verbs(format string) map[int]byte {
	set := map[int]byte{}
	next := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '%' {
			continue
		}
		if i < len(format) && format[i] == '[' {
			end := strings.IndexByte(format[i:], ']')
			if end > 0 {
				if n, err := strconv.Atoi(format[i+1 : i+end]); err == nil {
					next = n
				}
				i += end + 1
			}
			for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
				i++
			}
		}
		if i < len(format) {
			set[next] = format[i]
			next++
		}
	}
	return set
}

func sortedKeys(m map[string]entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// samples are the arguments checkPlain formats a message with, by verb:
// texts that elide in French and numbers at the ends of plain's range.
var samples = map[byte][]any{
	's': {"Élodie", "Bruno", "une carte"},
	'q': {"Élodie", "x"},
	'd': {0, 7, 999},
	'v': {"Ann", 12},
}

// checkPlain reports a message that plain (fmt) and x/text format
// differently, with sample arguments for its verbs.
func (c *Catalog) checkPlain(lang, key string, e entry) error {
	if e.forms != nil {
		return nil
	}
	vs := verbs(e.format)
	for i := 0; i < 3; i++ {
		args := make([]any, e.argc)
		for n := range args {
			args[n] = "-" // an argument the message does not use
		}
		for n, v := range vs {
			if n < 1 {
				return fmt.Errorf("%s/%s: %q refers to argument %d", c.name, lang, key, n)
			}
			opts, ok := samples[v]
			if !ok {
				opts = samples['v']
			}
			args[n-1] = opts[i%len(opts)]
		}
		if lang == "fr" || lang == "it" {
			args = markArgs(args)
		}
		fast, ok := c.plain(lang, key, args)
		if !ok {
			continue
		}
		if slow := c.printers[lang].Sprintf(key, args...); fast != slow {
			return fmt.Errorf("%s/%s: %q: fmt writes %q, x/text %q", c.name, lang, key, fast, slow)
		}
	}
	return nil
}
