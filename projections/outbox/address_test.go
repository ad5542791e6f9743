package outbox

import (
	"strings"
	"testing"
)

// TestAddressDomains: domains by RFC 1035 and RFC 5321 (letters, digits,
// inner hyphens, labels of at most 63 characters, a top-level label of two
// letters or more), no IP address written as a name, internationalised
// domains in their A-label form (the refusal names it).
func TestAddressDomains(t *testing.T) {
	for _, a := range []string{
		"ann@example.org", "a@mail.example.co.uk", "a@x-1.example.org", "a@1example.org", "a@123.example.org",
		"a@" + strings.Repeat("a", 63) + ".org", "a@xn--bcher-kva.example", "a@example.xn--p1ai", "Ann.B+tag@Example.ORG",
	} {
		if p := AddressProblem(a); p != "" {
			t.Errorf("AddressProblem(%q) = %q, want accepted", a, p)
		}
	}
	for _, a := range []string{
		"a@-example.org", "a@example-.org", "a@exa_mple.org", "a@123.45.67.89", "a@" + strings.Repeat("a", 64) + ".org",
		"a@example.c", "a@example.c0m", "a@example.123", "a@exa mple.org", "a@example..org", "a@xn--zz.example",
		"a@bücher.example", "a@0x7f.0x1",
	} {
		if p := AddressProblem(a); p == "" {
			t.Errorf("AddressProblem(%q) accepted", a)
		}
	}
	if p := AddressProblem("a@bücher.example"); !strings.Contains(p, "xn--bcher-kva.example") {
		t.Errorf("an internationalised domain's refusal does not name its A-label form: %q", p)
	}
}
