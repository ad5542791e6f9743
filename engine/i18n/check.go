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
// forms. (A plural form the language never selects is refused by Load:
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
		}
	}
	return errors.Join(errs...)
}

// args are the 1-based argument indexes a message formats, sorted.
func (e entry) args() []int {
	set := map[int]bool{}
	if e.forms == nil {
		addArgs(set, e.format)
	} else {
		set[e.arg] = true
		for _, f := range e.forms {
			addArgs(set, f)
		}
	}
	out := make([]int, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

// addArgs adds the argument indexes of format's verbs to set, following
// fmt's rules: %[n]v sets the index, a verb without one takes the next.
func addArgs(set map[int]bool, format string) {
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
			set[next] = true
			next++
		}
	}
}

func sortedKeys(m map[string]entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
