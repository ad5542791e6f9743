package inbound

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// How a move line in words finds its move among the seat's labels. The
// rules are tried in order, and the first that fits any label decides:
// one label, that move; several, none (the line is ambiguous: the answer
// lists them). So a line never picks a move when another one fits it as
// well.
//
//  1. a number line: "2", "2.", or "2. " followed by that move's label;
//  2. the label itself (fold: case, accents, blanks and end punctuation
//     aside);
//  3. the label's words without its filler words (articles, possessives
//     and small prepositions in English, French and Italian: "terminer
//     mon tour" is "Terminer votre tour", "termina il turno" is "Termina
//     il tuo turno");
//  4. the start of a label, of three letters or more, with or without its
//     filler words ("move 1" for "Move 1 unit from your castle to your
//     camp");
//  5. words of a label: every word of the line, filler words aside, is a
//     word of the label, and one at least is not a filler nor a player's
//     name ("taxes" for "Collect taxes (+1 gold)"; "Ann", a sign-off
//     more likely than "Give the badge of honour to Ann", names none).

// filler are the words rule 3 leaves out: articles, possessives and
// small prepositions, folded (no accents), in English, French and
// Italian. Moves differ by their other words.
var filler = setOf(
	// English
	"a", "an", "the", "my", "your", "our", "their", "his", "her", "its", "to", "of", "from", "in", "on", "at", "with", "for",
	// French
	"le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "mon", "ma", "mes", "ton", "ta", "tes", "son", "sa", "ses",
	"votre", "vos", "notre", "nos", "leur", "leurs", "au", "aux", "en", "sur", "pour", "avec",
	// Italian
	"il", "lo", "i", "gli", "uno", "una", "del", "dello", "della", "dei", "degli", "delle", "di", "da", "al", "allo",
	"alla", "ai", "agli", "alle", "su", "per", "con", "mio", "mia", "miei", "mie", "tuo", "tua", "tuoi", "tue",
	"suo", "sua", "suoi", "sue", "vostro", "vostra", "vostri", "vostre", "nostro", "nostra", "nostri", "nostre")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// pick finds the move a line names among labels (the rules above), names
// being the players' names: its index, or -1 with the indexes of the moves
// it fits when it fits several (none: it names no move).
func pick(line string, labels, names []string) (int, []int) {
	line = strings.TrimSpace(line)
	if m := numbered.FindStringSubmatch(line); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 || n > len(labels) {
			return -1, nil
		}
		if m[2] == "" || fold(m[2]) == fold(labels[n-1]) {
			return n - 1, nil
		}
		// "2 something": not a number line; read it as words below.
	}
	f := fold(line)
	if f == "" {
		return -1, nil
	}
	words := wordsOf(f)
	folded := make([]string, len(labels))
	kept := make([][]string, len(labels))
	for i, l := range labels {
		folded[i] = fold(l)
		kept[i] = wordsOf(folded[i])
	}
	key := strings.Join(words, " ")
	var named []string
	for _, n := range names {
		named = append(named, wordsOf(fold(n))...)
	}
	content := slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(named, w) })
	rules := []func(i int) bool{
		func(i int) bool { return folded[i] == f },
		func(i int) bool { return key != "" && strings.Join(kept[i], " ") == key },
		func(i int) bool {
			return len([]rune(f)) >= 3 && (strings.HasPrefix(folded[i], f) ||
				len([]rune(key)) >= 3 && strings.HasPrefix(strings.Join(kept[i], " "), key))
		},
		func(i int) bool { return content && subset(words, kept[i]) },
	}
	for _, fits := range rules {
		var found []int
		for i := range labels {
			if fits(i) {
				found = append(found, i)
			}
		}
		switch len(found) {
		case 0:
		case 1:
			return found[0], nil
		default:
			return -1, found
		}
	}
	return -1, nil
}

// pickDone finds the step a line names among the labels of the steps the
// game played for the seat (play.PlayedFor.ForcedMoves): its index, or -1.
// A number names a move of the seat's list, never one of these, so a line
// is read by its words only ("2. End turn": "End turn").
func pickDone(line string, labels, names []string) int {
	if len(labels) == 0 {
		return -1
	}
	if m := numbered.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		if m[2] == "" {
			return -1
		}
		line = m[2]
	}
	i, _ := pick(line, labels, names)
	return i
}

// wordsOf splits a folded text into its words (letters and digits), the
// filler words left out.
func wordsOf(f string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(f, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		if !filler[w] {
			out = append(out, w)
		}
	}
	return out
}

// subset reports whether every word of words is one of of.
func subset(words, of []string) bool {
	for _, w := range words {
		if !slices.Contains(of, w) {
			return false
		}
	}
	return true
}
