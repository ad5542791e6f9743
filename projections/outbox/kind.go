package outbox

// Kind names what an outbox row announces.
type Kind string

// The kinds of email. The game service writes Invitation, YourTurn,
// RoundEnd, GameOver and Link; the Scheduler writes Reminder and Timeout;
// the digest job writes Digest.
const (
	Invitation Kind = "invitation"
	YourTurn   Kind = "your_turn"
	Reminder   Kind = "reminder"
	Timeout    Kind = "timeout"
	RoundEnd   Kind = "round_end"
	GameOver   Kind = "game_over"
	Link       Kind = "link"
	Digest     Kind = "digest"
	// Chat carries a table-talk message to the other seats (the game
	// service); Reply is the mail listener's answer to a reply.
	Chat  Kind = "chat"
	Reply Kind = "reply"
	// Confirm, AdminLink and Signin are written by the organiser and
	// sign-in flows (issue #15): a proposal's confirmation link and a
	// game's admin link to its organiser, a sign-in link to "My games".
	// Their rows have no seat; the payload's game id is the proposal's
	// (or game's) id, or the sign-in link's id.
	Confirm   Kind = "confirm"
	AdminLink Kind = "admin_link"
	Signin    Kind = "signin"
	// Notice tells the seats that the organiser paused, resumed or gave
	// more time to a game (the game service; Payload.Notice says which).
	Notice Kind = "notice"
	// Away tells a person what their away does in each of their games,
	// or that they are back (Payload.Notice "away" or "back"; issue #43).
	// It spans games, like the digest: its row has no seat.
	Away Kind = "away"
)

// Kinds lists every kind, in a stable order.
func Kinds() []Kind {
	return []Kind{Invitation, YourTurn, Reminder, Timeout, RoundEnd, GameOver, Link, Digest, Chat, Reply, Confirm, AdminLink, Signin, Notice, Away}
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool {
	for _, x := range Kinds() {
		if x == k {
			return true
		}
	}
	return false
}

// AlwaysSent reports whether an email of kind k ignores the recipient's
// preference: an invitation or a link resend is what lets a player in,
// the organiser's and sign-in links were asked for, and the answer to a
// reply is what the player just asked for.
func (k Kind) AlwaysSent() bool {
	return k == Invitation || k == Link || k == Reply || k == Confirm || k == AdminLink || k == Signin || k == Away
}

// Bulk reports whether an email of kind k is one the person did not just
// ask for and may turn off: exactly the kinds a mail preference governs
// (your turn, reminders, timeouts, round ends, game overs, table talk,
// notices, digests). They carry Precedence: bulk and List-Unsubscribe (the
// preference link, RFC 8058 one-click). The others carry neither: the
// preference does not stop them (AlwaysSent), and mail providers file
// "bulk" mail away from what a person waits for (a confirmation, a sign-in
// link, the answer to their reply, an invitation or a new link).
func (k Kind) Bulk() bool { return !k.AlwaysSent() }

// Awaits reports whether an email of kind k asks its seat to move, so that
// it is stale once the seat has moved or is no longer awaited.
func (k Kind) Awaits() bool { return k == YourTurn || k == Reminder }

// MayAwait reports whether an email of kind k may ask its seat to move:
// those that do (Awaits), and a round-end email, which tells the awaited
// seat its moves and deadline beside the round's summary. Its call to move
// is as stale as a your-turn email's once the seat has moved (the round's
// summary stays true): see notify.Row.Passed.
func (k Kind) MayAwait() bool { return k.Awaits() || k == RoundEnd }

// Foldable reports whether an email of kind k is not sent when another
// email to its seat tells what it would (notify.Freshness): a your-turn
// email, a notice or a game-over email owed by a muster's end is folded
// into the answer to the reply that ended it (docs/email.md, the muster
// by reply).
func (k Kind) Foldable() bool { return k == YourTurn || k == Notice || k == GameOver }

// ForSeat reports whether an email of kind k goes to a seat of a game (and
// so has a time zone to tell its deadline in): not the digest, which spans
// games (see stories), nor the organiser's and sign-in emails.
func (k Kind) ForSeat() bool {
	switch k {
	case Digest, Confirm, AdminLink, Signin, Away:
		return false
	}
	return true
}

// TellsStory reports whether an email of kind k tells everything that
// happened since its recipient last heard (its last move, or the last
// email of a story it was sent: notify.Story), rather than the lines of
// the append that owed it.
func (k Kind) TellsStory() bool { return k == YourTurn || k == RoundEnd || k == GameOver }

// Gathered reports whether emails of kind k are gathered as table talk is
// (at most one per seat and game per quarter hour, or told by the seat's
// your-turn email: see notify.ChatGather).
func (k Kind) Gathered() bool { return k == Chat }
