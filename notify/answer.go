package notify

import (
	"strings"

	"pbem/projections/outbox"
)

// said is one sentence of an answer: its catalog key and the move it
// names (the move played, or the line reading stopped at), the zone
// a zone line gave, or the greeting line skipped, and for an ambiguous
// line the moves it could name.
type said struct {
	Key  string
	Move string
	// Also is the moves a line could name (AnswerAmbiguous), joined.
	Also string
}

// sentences pairs each of a's Says with the move it names; a muster
// answer that ended the muster reads its "_over" sentence, a move played
// (or played for the seat) whose label ends a sentence its "_ends" one
// (no stop of its own after the label's), and a deadline that played the
// seat's turn the sentence of its policy.
func sentences(a *outbox.Answer) []said {
	out := make([]said, 0, len(a.Says))
	played, skipped, forced, done := 0, 0, 0, 0
	for _, k := range a.Says {
		s := said{Key: k, Move: a.Move}
		switch k {
		case outbox.AnswerPlayed:
			if played < len(a.Moves) {
				s.Move = a.Moves[played]
			}
			played++
			if endsSentence(s.Move) {
				s.Key += "_ends"
			}
		case outbox.AnswerSkipped:
			if skipped < len(a.Skipped) {
				s.Move = a.Skipped[skipped]
			}
			skipped++
		case outbox.AnswerForced:
			s.Move = ""
			if forced < len(a.Forced) {
				s.Move = a.Forced[forced]
			}
			forced++
			if endsSentence(s.Move) {
				s.Key += "_ends"
			}
		case outbox.AnswerTimedOut:
			if k := s.Key + "." + a.TimedOut; emailCatalog.Has("answer." + k) {
				s.Key = k
			}
		case outbox.AnswerDone:
			s.Move = ""
			if done < len(a.Done) {
				s.Move = a.Done[done]
			}
			done++
		case outbox.AnswerAmbiguous:
			s.Move, s.Also = a.Ambiguous, strings.Join(a.Candidates, "; ")
		case outbox.AnswerStopped:
			s.Move = a.Stopped
		case outbox.AnswerZone, outbox.AnswerZoneBad:
			s.Move = a.Zone
		case outbox.AnswerAway, outbox.AnswerAwayUnread, outbox.AnswerAwayPast, outbox.AnswerAwayTooLong:
			s.Move = a.Away
		case outbox.AnswerAccepted, outbox.AnswerDeclined:
			if a.MusterOver {
				s.Key += "_over"
			}
		}
		out = append(out, s)
	}
	return out
}

// endsSentence reports whether label ends with a full stop, a question or
// an exclamation mark, or an ellipsis (a card's text quoted in a move's
// label): a sentence that closes with it adds no stop of its own.
func endsSentence(label string) bool {
	return strings.HasSuffix(label, ".") || strings.HasSuffix(label, "!") ||
		strings.HasSuffix(label, "?") || strings.HasSuffix(label, "…")
}
