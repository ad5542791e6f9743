package notify

import "pbem/projections/outbox"

// said is one sentence of an answer: its catalog key and the move it
// names (the move played, or the line reading stopped at), the zone
// a zone line gave, or the greeting line skipped.
type said struct {
	Key  string
	Move string
}

// sentences pairs each of a's Says with the move it names; a muster
// answer that ended the muster reads its "_over" sentence.
func sentences(a *outbox.Answer) []said {
	out := make([]said, 0, len(a.Says))
	played, skipped := 0, 0
	for _, k := range a.Says {
		s := said{Key: k, Move: a.Move}
		switch k {
		case outbox.AnswerPlayed:
			if played < len(a.Moves) {
				s.Move = a.Moves[played]
			}
			played++
		case outbox.AnswerSkipped:
			if skipped < len(a.Skipped) {
				s.Move = a.Skipped[skipped]
			}
			skipped++
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
