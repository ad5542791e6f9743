package projections

import (
	"slices"

	"pbem/projections/outbox"
)

// owedMails are the emails a owes once its events are all folded (see
// Owed): a timeout email to each seat that timed out, in the transaction
// of the timeout itself so that a crash cannot lose it; then the
// invitations of a new game, the result of a game that ended, or, in an
// active game, the round's result or else the turns.
//
// A round's end owes every seat its round-end email and no your-turn
// email: the one to a seat the game awaits asks its move as a your-turn
// email would (its moves, deadline and reply address, written with the
// round's end; notify tells it up to the game as it stands when it is
// sent), so that the seat reads one email, not the round's end and
// "your turn" again beside it. Every seat owed a your-turn email reads
// the round-end email (owe: the same seats read both).
func owedMails(a Append, f *facts) []Mail {
	g := a.After
	v := g.Version
	var out []Mail
	for _, seat := range f.timedOut {
		out = oweSeat(out, g, seat, Mail{Kind: outbox.Timeout, Version: v, Tells: TellsAppend})
	}
	switch {
	case f.created:
		out = oweAll(out, g, Mail{Kind: outbox.Invitation, Version: v, Tells: TellsAppend})
	case g.Ended() && a.Before.Status != g.Status:
		out = oweAll(out, g, Mail{Kind: outbox.GameOver, Version: v, Tells: TellsAppend})
		out = formers(out, g, Mail{Kind: outbox.GameOver, Version: v, Tells: TellsAppend})
	case g.Status == StatusActive && f.roundEnd:
		out = oweAll(out, g, Mail{Kind: outbox.RoundEnd, Version: v, Tells: TellsAppend})
	case g.Status == StatusActive:
		for _, seat := range owedTurns(a, f) {
			out = oweSeat(out, g, seat, Mail{Kind: outbox.YourTurn, Version: v, Tells: TellsAppend})
		}
	}
	return out
}

// owedTurns lists the seats of an active game owed a your-turn email: the
// seats it awaits that it did not await before, or every seat it awaits
// when it was not active before or was resumed.
func owedTurns(a Append, f *facts) []int {
	if f.resumed || a.Before.Status != StatusActive {
		return a.After.ToMove
	}
	return entered(a.Before.ToMove, a.After.ToMove)
}

// owe adds m to out unless its recipient reads no such email: a seat
// without an address (a bot's from the start) reads none, and a seat a
// bot plays for its person only what a person who played is told
// (BotPlayedKind): never a turn to play.
func owe(out []Mail, m Mail) []Mail {
	if m.To.Email == "" || (m.To.Bot != "" && !BotPlayedKind(m.Kind)) {
		return out
	}
	return append(out, m)
}

// oweSeat is owe of m to seat n of g (nothing for a seat g has not).
func oweSeat(out []Mail, g *Game, n int, m Mail) []Mail {
	s := g.SeatAt(n)
	if s == nil {
		return out
	}
	m.To = *s
	return owe(out, m)
}

// oweAll is owe of m to every seat of g.
func oweAll(out []Mail, g *Game, m Mail) []Mail {
	for _, s := range g.Seats {
		m.To = s
		out = owe(out, m)
	}
	return out
}

// entered lists the seats of after that are not in before.
func entered(before, after []int) []int {
	var out []int
	for _, s := range after {
		if !slices.Contains(before, s) {
			out = append(out, s)
		}
	}
	return out
}
