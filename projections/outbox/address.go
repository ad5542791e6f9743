package outbox

import (
	"net/mail"
	"strings"
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
	return ""
}
