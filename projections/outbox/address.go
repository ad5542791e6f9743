package outbox

import (
	"net/mail"
	"strings"

	"golang.org/x/net/idna"
)

// AddressProblem says why email is not an address pbem sends mail to, or
// "" when it is one. Every address that enters the server (a game's
// players and organiser, an admin's correction or replacement, a sign-in
// request) is checked with it, and the outbox checks it again before the
// relay sees it. Refused besides malformed addresses:
//
//   - a domain literal (a@[127.0.0.1]) and a domain of one label
//     (root@localhost, a@x) or under .localhost: mail the relay would
//     deliver to itself or its network, not to a player;
//   - a domain that is not a host name by RFC 1035 and RFC 5321 (domainProblem):
//     labels of letters, digits and inner hyphens, at most 63 characters,
//     a top-level label of at least two letters, so that no IP address
//     written as a name (a@123.45.67.89) passes; an internationalised
//     domain is given in its A-label form (xn--…), which the answer names;
//   - % and ! in the local part (a%b@x.org, a!b@x.org): the old source
//     routes, which some relays still follow to another host;
//   - a quoted local part ("a b"@x.org), which no player needs.
//
// The reason is written to follow a field name ("email: …").
func AddressProblem(email string) string {
	const plain = "give a plain address like ann@example.org"
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 {
		return plain
	}
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:at], strings.ToLower(strings.TrimSuffix(email[at+1:], "."))
	switch {
	case strings.HasPrefix(local, `"`):
		return plain + " (without quotes)"
	case strings.ContainsAny(local, "%!"):
		return "an address with % or ! would route mail through another host: " + plain
	case strings.HasPrefix(domain, "["):
		return "an address at an IP address is not accepted: " + plain
	case !strings.Contains(domain, ".") || domain == "localhost" || strings.HasSuffix(domain, ".localhost"):
		return domain + " is not a domain on the internet: " + plain
	}
	if problem := domainProblem(domain); problem != "" {
		return problem + ": " + plain
	}
	return ""
}

// domainProblem says why domain (lower case, without a final dot) is not
// a host name mail can go to, or "".
func domainProblem(domain string) string {
	if !isASCII(domain) {
		if ace, err := idna.Lookup.ToASCII(domain); err == nil {
			return "write the domain " + domain + " in its A-label form, " + ace
		}
		return domain + " is not a valid domain name"
	}
	if len(domain) > 253 {
		return "the domain is longer than 253 characters"
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		switch {
		case l == "":
			return domain + " has an empty label"
		case len(l) > 63:
			return "a label of " + domain + " is longer than 63 characters"
		case l[0] == '-' || l[len(l)-1] == '-':
			return "a label of " + domain + " begins or ends with a hyphen"
		case strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") != "":
			return domain + " may hold only letters, digits, hyphens and dots"
		}
	}
	if strings.Contains(domain, "xn--") {
		// The A-labels must decode (RFC 5891): Lookup's rules refuse a
		// label that is not valid Punycode or a disallowed character.
		if _, err := idna.Lookup.ToUnicode(domain); err != nil {
			return domain + " holds a label that is not a valid A-label"
		}
	}
	top := labels[len(labels)-1]
	if !strings.HasPrefix(top, "xn--") && (len(top) < 2 || strings.Trim(top, "abcdefghijklmnopqrstuvwxyz") != "") {
		return domain + " does not end in a top-level domain of at least two letters"
	}
	return ""
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
