package api_test

import (
	"testing"

	"pbem/api"
	"pbem/projections/outbox"
)

// TestFailedEmailKindsAreNamed: every kind of email has a name in each
// language for the admin page's failed emails (never its code, such as
// "your_turn").
func TestFailedEmailKindsAreNamed(t *testing.T) {
	t.Parallel()
	for _, k := range outbox.Kinds() {
		key := "admin.mail." + string(k)
		if !api.PageCatalog.Has(key) {
			t.Errorf("no %s in the pages' catalog", key)
			continue
		}
		for _, lang := range []string{"en", "fr", "it"} {
			if got := api.PageCatalog.T(lang, key); got == "" || got == key || got == string(k) {
				t.Errorf("%s: %s reads %q", lang, key, got)
			}
		}
	}
}
