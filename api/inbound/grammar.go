package inbound

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The grammar of a reply, after replyLines has removed what mail clients
// add:
//
//   - a line that starts with "chat:" (any case, a blank allowed before the
//     colon) is table talk: the rest of the line goes to the table. Nothing
//     else is table talk, and such a line is never read as a move.
//   - a line that is a number ("2", "2.", or "2. " followed by that move's
//     label as the email listed it) is the move of that number;
//   - a line that is a move's label in words, in any case and with or
//     without accents, possessives or articles ("terminer mon tour" for
//     "Terminer votre tour"), or the start of exactly one label, or
//     words of exactly one label ("taxes" for "Collect taxes (+1 gold)"),
//     is that move (pick, match.go); words that fit several moves name
//     none, and the answer lists those moves (outbox.AnswerAmbiguous);
//   - after a move or a chat line, a last paragraph of one or two short
//     lines (a sign-off such as "Thanks, Ann") is ignored;
//   - every other line is a move line too: successive move lines are
//     played in order, the first read against the email's list, each next
//     one against the list that follows the move before it (a Swords and
//     Bagpipes turn is several moves: "2⏎9⏎1"). Reading stops at the first
//     line that is none of the seat's moves then, or is refused, or comes
//     when no move is awaited any more; the answer says what was played,
//     where it stopped and why. A first line that is no move makes the
//     reply unreadable: no move is played (its chat lines still go to the
//     table, and the answer then says so rather than "nothing was sent"),
//     and the answer quotes what was read.
//   - greeting lines before the first move line ("Hi Ann,", "Bonsoir !",
//     "Ciao a tutti") are skipped, and the answer names each
//     (withoutGreetings, issue #43).
//
//   - an away line ("away: 12 December") or a back line ("back") says the
//     person is away or back (away.go); neither is read as a move.
//   - a line that starts with "zone:", "fuseau:" or "fuso:" (any case, a
//     blank allowed before the colon) gives the seat's time zone, a city
//     or a zone name ("zone: Paris", "fuso: Roma"): the emails tell
//     deadlines in it (issue #30). The last such line counts; it is never
//     read as a move.
//
// A reply may hold moves and several chat lines; the chat goes to the
// table first, then the moves are played.

// parsed is a reply read with the grammar.
type parsed struct {
	chat []string
	// moves are the move lines, in order.
	moves []string
	// zone is what the last zone line gave; hasZone: the reply has one.
	zone    string
	hasZone bool
	// away is what the last away line gave (hasAway: the reply has one);
	// back: the reply has a back line (away.go).
	away    string
	hasAway bool
	back    bool
}

var chatPrefix = regexp.MustCompile(`(?i)^chat\s*:\s*`)

// zonePrefix starts a zone line, in English, French or Italian.
var zonePrefix = regexp.MustCompile(`(?i)^(zone|fuseau|fuso)\s*:\s*`)

// parse applies the grammar to a reply's lines.
func parse(ls []string) parsed {
	var p parsed
	body := withoutSignOff(ls)
	for _, l := range body {
		switch {
		case l == "":
		case chatPrefix.MatchString(l):
			if t := strings.TrimSpace(chatPrefix.ReplaceAllString(l, "")); t != "" {
				p.chat = append(p.chat, t)
			}
		case zonePrefix.MatchString(l):
			p.zone, p.hasZone = strings.TrimSpace(zonePrefix.ReplaceAllString(l, "")), true
		case awayPrefix.MatchString(l):
			p.away, p.hasAway = strings.TrimSpace(awayPrefix.ReplaceAllString(l, "")), true
		case isBack(l):
			p.back = true
		default:
			p.moves = append(p.moves, l)
		}
	}
	return p
}

// withoutSignOff drops a last paragraph of at most two short lines when an
// earlier paragraph exists.
func withoutSignOff(ls []string) []string {
	last := -1
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i] == "" {
			last = i
			break
		}
	}
	if last <= 0 {
		return ls
	}
	tail := ls[last+1:]
	if len(tail) == 0 || len(tail) > 2 {
		return ls
	}
	for _, l := range tail {
		if len([]rune(l)) > 40 || chatPrefix.MatchString(l) || zonePrefix.MatchString(l) || awayPrefix.MatchString(l) || isBack(l) || isNumber(l) {
			return ls
		}
	}
	return trimBlank(ls[:last])
}

var numbered = regexp.MustCompile(`^(\d{1,4})\s*[.)]?\s*(.*)$`)

func isNumber(l string) bool {
	m := numbered.FindStringSubmatch(strings.TrimSpace(l))
	return m != nil && m[2] == ""
}

// fold lowercases s, removes accents and punctuation at the ends, and
// collapses blanks, so that "Recruit  Ross." matches "recruit ross".
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	r, _, err := transform.String(t, s)
	if err != nil {
		r = s
	}
	r = strings.ToLower(strings.Join(strings.Fields(r), " "))
	return strings.TrimFunc(r, func(c rune) bool { return unicode.IsPunct(c) || unicode.IsSpace(c) })
}
