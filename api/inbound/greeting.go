package inbound

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Greetings (issue #43). People start a reply as they start a letter:
// "Hi Ann,", "Bonsoir !", "Ciao a tutti". Such lines before the first move
// line are not moves: they are skipped, and the answer names each line it
// skipped (outbox.AnswerSkipped), so that a reader who meant a move sees
// it was not read as one.
//
// A line is a greeting when, folded (lower case, no accents, no
// punctuation at its ends), it starts with one of the salutations of
// greetingStart as a whole word, holds no digit, is at most six words and
// 40 characters long, and names none of the seat's moves, nor several (pick): a label
// that starts like a salutation stays a move.

// greetingStart matches the start of a folded greeting line, in English,
// French and Italian.
var greetingStart = regexp.MustCompile(`^(hi|hello|hey|hiya|howdy|greetings|dear|good (morning|afternoon|evening|day)|morning|evening` +
	`|bonjour|bonsoir|salut|coucou|cher|chere|chers|cheres|hello` +
	`|ciao|salve|buongiorno|buon giorno|buonasera|buona sera|buon pomeriggio|caro|cara|cari|care|carissimi|carissime|gentile|gentili)\b`)

// isGreeting reports whether line reads as a greeting rather than as one
// of labels (see above).
func isGreeting(line string, labels []string) bool {
	f := fold(line)
	if f == "" || utf8.RuneCountInString(line) > 40 || len(strings.Fields(f)) > 6 {
		return false
	}
	if strings.ContainsFunc(f, unicode.IsDigit) || !greetingStart.MatchString(f) {
		return false
	}
	i, several := pick(line, labels, nil)
	return i < 0 && several == nil
}

// withoutGreetings returns p without the greeting lines before its first
// move line, and those lines. A reply that would be left with no move,
// chat, zone, away or back line keeps them: it is answered as unreadable, quoting
// what was read.
func (p parsed) withoutGreetings(labels []string) (parsed, []string) {
	n := 0
	for n < len(p.moves) && isGreeting(p.moves[n], labels) {
		n++
	}
	if n == 0 || (n == len(p.moves) && len(p.chat) == 0 && !p.hasZone && !p.hasAway && !p.back) {
		return p, nil
	}
	skipped := p.moves[:n:n]
	p.moves = p.moves[n:]
	return p, skipped
}
