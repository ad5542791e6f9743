package inbound

import (
	"regexp"
	"strings"
)

// Reading a reply's own words out of a message: what mail clients add
// around them is removed, as English, French and Italian clients write it.
//
//   - quoted lines ("> ..."), wherever they are (top- and bottom-posting);
//   - attribution lines ("On ... wrote:", "Le ... a écrit :", "Il giorno
//     ... ha scritto:"), also when a client wrapped them over two lines;
//     when no quoted lines follow one, the rest is the quoted message;
//   - Outlook's quoted message: a "-----Original Message-----" line (and
//     its French and Italian forms), or a "From:/De :/Da:" line followed
//     by "Sent:/Envoyé :/Inviato:" or similar header lines: the rest;
//   - the signature: everything after a "-- " line or a line of
//     underscores, and "Sent from my iPhone" and its kin.

var (
	attribution = regexp.MustCompile(`(?i)^(on|le|il|el|am)\b.*\b(wrote|a écrit|ha scritto|escribió|schrieb)\s*:\s*$`)
	original    = regexp.MustCompile(`(?i)^\s*-{2,}\s*(original message|message d'origine|messaggio originale|forwarded message|message transféré|messaggio inoltrato)\s*-{2,}\s*$`)
	headerFrom  = regexp.MustCompile(`(?i)^\s*\*?(from|de|da)\s*\*?\s*:\s*\S`)
	headerNext  = regexp.MustCompile(`(?i)^\s*\*?(sent|date|to|subject|cc|envoyé|à|objet|inviato|data|a|oggetto)\s*\*?\s*:`)
	phoneSig    = regexp.MustCompile(`(?i)^(sent from my |sent from |envoyé de mon |envoyé depuis |inviato da |inviato dal mio |get outlook for |obtenir outlook pour |scarica outlook per )`)
	underscores = regexp.MustCompile(`^_{10,}$`)
)

// replyLines returns the lines a person wrote in a reply, without what
// their mail client added, trimmed of blank lines at both ends.
func replyLines(text string) []string {
	in := lines(text)
	var out []string
	for i := 0; i < len(in); i++ {
		l := in[i]
		t := strings.TrimSpace(l)
		switch {
		case t == "--" || underscores.MatchString(t) || original.MatchString(t) || phoneSig.MatchString(t):
			return trimBlank(out)
		case strings.HasPrefix(t, ">"):
			continue
		case headerFrom.MatchString(t) && headerBlock(in[i+1:]):
			return trimBlank(out)
		}
		if n := attributionAt(in, i); n > 0 {
			if !quotedNext(in[i+n:]) {
				return trimBlank(out)
			}
			i += n - 1
			continue
		}
		out = append(out, t)
	}
	return trimBlank(out)
}

// attributionAt returns how many lines (1 or 2) starting at i form an
// attribution line, or 0.
func attributionAt(in []string, i int) int {
	t := strings.TrimSpace(in[i])
	if attribution.MatchString(t) {
		return 1
	}
	if i+1 < len(in) && len(t) > 3 && attribution.MatchString(t+" "+strings.TrimSpace(in[i+1])) {
		return 2
	}
	return 0
}

// headerBlock reports whether the next non-blank lines look like the
// header block Outlook writes above a quoted message.
func headerBlock(next []string) bool {
	seen := 0
	for _, l := range next {
		if seen == 3 {
			break
		}
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		seen++
		if headerNext.MatchString(t) {
			return true
		}
	}
	return false
}

// quotedNext reports whether the first non-blank line of next is quoted.
func quotedNext(next []string) bool {
	for _, l := range next {
		if t := strings.TrimSpace(l); t != "" {
			return strings.HasPrefix(t, ">")
		}
	}
	return false
}

func trimBlank(ls []string) []string {
	for len(ls) > 0 && ls[0] == "" {
		ls = ls[1:]
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}
