package notify

import (
	"fmt"
	netmail "net/mail"
	"strconv"
	"strings"
	"unicode"
)

// maxEncodedWord bounds the length of each word encodeSubject writes. go-mail
// folds a header between words and, when the first word does not fit on the
// field's first line, folds before it, leaving the line "Subject:" empty;
// the unfolded value then begins with a space, which clients that unfold
// literally show. Go's mime encoder writes one encoded word of up to 75
// characters, more than the 64 that fit after "Subject: ". Words of at most
// 60 characters always fit there.
const maxEncodedWord = 60

// oneLine is s on one line with single spaces: each run of white space
// that breaks (a line end, a tab, spaces) becomes one space. A no-break
// space stays: French puts one before ":" ("Bon retour\u00a0: ..."), and
// a subject keeps it as its body does.
func oneLine(s string) string { return strings.Join(strings.FieldsFunc(s, breakingSpace), " ") }

// breakingSpace reports white space other than the no-break spaces
// (U+00A0, U+2007, U+202F).
func breakingSpace(r rune) bool {
	return unicode.IsSpace(r) && r != '\u00a0' && r != '\u2007' && r != '\u202f'
}

// encodeSubject returns the Subject field's value for subj (one line,
// single spaces, as Render writes it): subj itself when it is printable
// ASCII with short words and nothing that reads as an encoded word, else
// RFC 2047 "Q" encoded words of at most maxEncodedWord characters, each
// holding its spaces, so that decoders, which drop the folding white space
// between two encoded words, give back subj exactly.
func encodeSubject(subj string) string {
	if plainHeaderText(subj) {
		return subj
	}
	const open, close = "=?UTF-8?q?", "?="
	budget := maxEncodedWord - len(open) - len(close)
	var words []string
	var cur strings.Builder
	for _, r := range subj {
		enc := qEncodeRune(r)
		if cur.Len() > 0 && cur.Len()+len(enc) > budget {
			words = append(words, open+cur.String()+close)
			cur.Reset()
		}
		cur.WriteString(enc)
	}
	if cur.Len() > 0 {
		words = append(words, open+cur.String()+close)
	}
	return strings.Join(words, " ")
}

// plainHeaderText reports whether s may stand unencoded in an unstructured
// header field that go-mail folds well: printable ASCII, no "=?" (which a
// client would try to decode), and no word longer than maxEncodedWord.
func plainHeaderText(s string) bool {
	if strings.Contains(s, "=?") {
		return false
	}
	word := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' {
			return false
		}
		if c == ' ' {
			word = 0
			continue
		}
		if word++; word > maxEncodedWord {
			return false
		}
	}
	return true
}

// qEncodeRune is r in an encoded word's "Q" encoding, with the characters
// RFC 2047 (section 5, rule 3) allows everywhere kept as they are, space
// written "_", and every other byte of r's UTF-8 form as "=XX".
func qEncodeRune(r rune) string {
	switch {
	case r == ' ':
		return "_"
	case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!*+-/", r)):
		return string(r)
	}
	var b strings.Builder
	for _, c := range []byte(string(r)) {
		fmt.Fprintf(&b, "=%02X", c)
	}
	return b.String()
}

// DefaultFromName is the display name of the From address when
// PBEM_MAIL_FROM gives none.
const DefaultFromName = "pbem"

// fromAddress is the From address of emails: PBEM_MAIL_FROM (a bare
// address, or one with a display name: `"Club games" <pbem@x.org>`), else
// pbem@host; named DefaultFromName when it carries no name.
func fromAddress(from, host string) (*netmail.Address, error) {
	if strings.TrimSpace(from) == "" {
		return &netmail.Address{Name: DefaultFromName, Address: "pbem@" + host}, nil
	}
	a, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("notify: PBEM_MAIL_FROM %q: give an address, with a display name or not (\"Club games\" <pbem@example.org>): %w", from, err)
	}
	if strings.TrimSpace(a.Name) == "" {
		a.Name = DefaultFromName
	}
	return a, nil
}

// ThreadID is the Message-ID (without brackets) of the root of the thread
// a game's emails to one seat form: seat-SEAT.GAME@HOST. The seat's first
// invitation (the one sent when the game was created, token generation 0)
// carries it as its own Message-ID, and every later email of the game to
// the seat names it in References, so that clients threading on References
// put them in one thread per player without the sender looking anything
// up. A player who takes over a seat later (a replacement, a corrected
// address) never received the root; clients still thread the seat's
// emails by the reference they share. Empty when gameID has no character
// allowed in a Message-ID.
func (r *Renderer) ThreadID(gameID string, seat int) string {
	g := messageIDSafe(gameID)
	if g == "" || seat < 0 {
		return ""
	}
	return "seat-" + strconv.Itoa(seat) + "." + g + "@" + r.host
}
