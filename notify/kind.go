package notify

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
)

// Kinds lists every kind, in a stable order.
func Kinds() []Kind {
	return []Kind{Invitation, YourTurn, Reminder, Timeout, RoundEnd, GameOver, Link, Digest, Chat, Reply}
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
// preference: an invitation or a link resend is what lets a player in, and
// the answer to a reply is what the player just asked for.
func (k Kind) AlwaysSent() bool { return k == Invitation || k == Link || k == Reply }
