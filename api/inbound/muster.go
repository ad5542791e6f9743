package inbound

import (
	"context"
	"strings"
	"unicode"

	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
	"pbem/projections/outbox"
)

// The muster before the first turn (issue #46): while a game waits for
// its players to accept, a reply's first move line is read as an answer,
// "yes" or "no", in English, French or Italian (docs/email.md lists the
// words). Case, accents and punctuation do not matter ("Oui !", "Sì.",
// "si"), and a line that begins with one of the words counts ("Yes, count
// me in"; "No, sorry").

// musterYes and musterNo are the answers, folded (fold): whole lines, or
// the first word of a line (musterWord).
var (
	musterYes = []string{"yes", "y", "yeah", "yep", "sure", "ok", "okay", "i'm in", "im in", "count me in", "i will play", "i'll play",
		"oui", "ouais", "d'accord", "je joue", "je suis partant", "je suis partante", "partant", "partante", "volontiers",
		"si", "certo", "va bene", "gioco", "ci sono", "volentieri"}
	musterNo = []string{"no", "n", "nope", "sorry", "i can't", "i cannot", "i can't play", "i cannot play", "not this time",
		"non", "je ne peux pas", "je ne joue pas", "pas cette fois", "desole", "desolee",
		"non posso", "non gioco", "mi dispiace", "purtroppo no", "no grazie"}
)

// musterAnswer reads line as a muster answer: yes, and ok when it is one.
func musterAnswer(line string) (yes, ok bool) {
	l := fold(line)
	if l == "" {
		return false, false
	}
	first := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for _, w := range musterYes {
		if l == w || (len(first) > 0 && first[0] == w) || strings.HasPrefix(l, w+" ") || strings.HasPrefix(l, w+",") {
			return true, true
		}
	}
	for _, w := range musterNo {
		if l == w || (len(first) > 0 && first[0] == w) || strings.HasPrefix(l, w+" ") || strings.HasPrefix(l, w+",") {
			return false, true
		}
	}
	return false, false
}

// muster answers a reply to a game that waits for its players (its
// moves: the first line is the answer); the answer email says what was
// recorded, or that the reply was not understood (quoting it).
func (p *Processor) muster(ctx context.Context, a notify.ReplyAddress, rs *play.ReplySeat, key string, moves, read []string, ans *outbox.Answer) error {
	if len(moves) == 0 {
		return nil
	}
	yes, ok := musterAnswer(moves[0])
	if !ok {
		ans.Says, ans.Quote = append(ans.Says, outbox.AnswerMusterUnread), quote(read)
		return nil
	}
	err := p.c.Service.AnswerAs(ctx, a.GameID, a.Seat, yes, key)
	if err == nil {
		p.musterEnd(ctx, a, ans)
	}
	switch code := play.ErrorCode(err); {
	case err == nil && yes:
		ans.Says = append(ans.Says, outbox.AnswerAccepted)
	case err == nil:
		ans.Says = append(ans.Says, outbox.AnswerDeclined)
	case code == events.CodeConflict:
		ans.Says, ans.Detail, ans.Code = append(ans.Says, outbox.AnswerRefused), play.ErrorMessage(err), play.ServiceErrorCode(err)
	default:
		return err
	}
	return nil
}

// musterEnd tells ans what the game's muster came to just after the
// seat's answer: when it was the last one (the game began or was called
// off), the answer says so and tells what the muster's end did (who
// declined, the bots, the start, play.MusterEnd): it is the one email its
// reader gets about the start, the your-turn email or notice owed to them
// being folded into it (notify/postgres, freshSQL). A game it cannot read
// counts as still mustering: the answer then says what it says before the
// last answer, and the email the start owes is sent as well.
func (p *Processor) musterEnd(ctx context.Context, a notify.ReplyAddress, ans *outbox.Answer) {
	end, err := p.c.Service.MusterEndFor(ctx, a.GameID, a.Seat)
	if err != nil {
		p.c.Logger.Warn("inbound: the muster after an answer", "game", a.GameID, "seat", a.Seat, "err", err)
		return
	}
	ans.MusterOver, ans.Lines = end.Over, end.Lines
}
