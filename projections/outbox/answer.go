package outbox

// Answer is what the mail listener says back to a reply (the payload of a
// Reply email). Every reply it reads gets one, unless the seat's hourly
// bound of answers is reached (see the inbound package).
type Answer struct {
	// Says lists what happened, in order: AnswerPlayed, AnswerPosted... The
	// email says each in the game's language.
	Says []string `json:"says"`
	// Move is the label of the move played (AnswerPlayed), the first one
	// when a reply played several.
	Move string `json:"move,omitempty"`
	// Moves are the labels of the moves played, in order, one for each
	// AnswerPlayed of Says (a reply of several lines, issue #30); empty:
	// Move alone.
	Moves []string `json:"moves,omitempty"`
	// Stopped is the reply's line at which reading stopped after one or
	// more moves were played (AnswerStopped); the reason follows it in
	// Says (AnswerUnknownLine, AnswerTurnOver or AnswerRefused).
	Stopped string `json:"stopped,omitempty"`
	// Skipped are the greeting lines read before the first move line and
	// not played, one for each AnswerSkipped of Says (issue #43).
	Skipped []string `json:"skipped,omitempty"`
	// Zone is the time zone a zone line set (AnswerZone), or the text it
	// gave (AnswerZoneBad).
	Zone string `json:"zone,omitempty"`
	// Away is the day an away line set (AnswerAway, 2026-12-12), the day
	// it named (AnswerAwayPast), what it said (AnswerAwayUnread), or the
	// latest day allowed (AnswerAwayTooLong).
	Away string `json:"away,omitempty"`
	// Quote is the text read from the reply (AnswerUnreadable), as lines.
	Quote []string `json:"quote,omitempty"`
	// Detail is the reason a move or a message was refused, in English
	// (the service's message), and Code its error code: the email explains
	// the code in its language (projections.ExplainError).
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code,omitempty"`
	// Turn names the seats whose move the game awaits
	// (AnswerNotYourTurn).
	Turn []string `json:"turn,omitempty"`
	// MusterOver tells that a muster answer (AnswerAccepted or
	// AnswerDeclined) was the last the game waited for: the muster is over,
	// the game begun (or called off), so the email no longer says that it
	// begins once everyone has answered, nor offers a change of mind. A
	// previous release's worker, which does not read it, says what it
	// said before.
	MusterOver bool `json:"muster_over,omitempty"`
	// Forced tells the steps the game played for the seat as its only
	// moves after a move the reply played (AnswerForced, one each), as the
	// seat's history tells them.
	Forced []string `json:"forced,omitempty"`
	// Ambiguous is a move line whose words fit several of the seat's moves
	// (AnswerAmbiguous), and Candidates those moves, numbered as the
	// answer's list numbers them ("2. End your turn").
	Ambiguous  string   `json:"ambiguous,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
	// Done are the reply's lines that named a step the game had played
	// for the seat (one of Forced) after the move of the line before:
	// counted as done, not played again (AnswerDone, one each).
	Done []string `json:"done,omitempty"`
	// TimedOut is the policy the deadline applied to the seat before the
	// reply came (AnswerTimedOut: default_move, skip, bot or pause).
	TimedOut string `json:"timed_out,omitempty"`
	// Lines tell what happened beyond what the reply did, as the seat may
	// see them, in its language: after a muster answer that was the last
	// (MusterOver), the muster's end and anything since (play.MusterEnd).
	// The email tells them under "What happened".
	Lines []string `json:"lines,omitempty"`
	// InReplyTo is the Message-ID of the reply, with its brackets, so that
	// mail clients thread the answer.
	InReplyTo string `json:"in_reply_to,omitempty"`
}

// What an Answer says.
const (
	AnswerPlayed  = "played"   // the move was played
	AnswerPosted  = "posted"   // the chat message went to the table
	AnswerMovedOn = "moved_on" // the email answered listed other moves than now
	// AnswerStale: the email answered is about an earlier position (a
	// move was taken back, or the seat moved, after it), although its
	// list may be the seat's list again: nothing was played.
	AnswerStale = "stale"
	// AnswerHistoryCut: the email answered told of a version a restore of
	// the database took back (pbem.history_cut): nothing was played.
	AnswerHistoryCut = "history_cut"
	AnswerUnreadable = "unreadable" // neither a move nor chat: nothing done
	// AnswerUnreadableMoves: the reply's chat went to the table
	// (AnswerPosted before it), but its first move line is none of the
	// seat's moves: no move was played (the answer quotes what was read).
	AnswerUnreadableMoves = "unreadable_moves"
	// AnswerSkipped: a greeting line before the first move line ("Hi
	// Ann,", "Bonsoir !") was not read as a move (Skipped).
	AnswerSkipped    = "skipped"
	AnswerNotAwaited = "not_awaited" // a move, but none is awaited from the seat
	// AnswerNotYourTurn: a move, but the game awaits other seats (Turn):
	// the answer names them and says an email will come.
	AnswerNotYourTurn = "not_your_turn"
	// AnswerBotPlays: a move, but the organiser handed the seat to a bot,
	// which plays it for now: nothing was played, and the answer says to
	// ask the organiser to hand the seat back (issue #43).
	AnswerBotPlays   = "bot_plays"
	AnswerRefused    = "refused"     // the service refused the move
	AnswerChatFailed = "chat_failed" // the service refused the message
	AnswerEnded      = "ended"       // the game is over, aborted or paused
	// After one or more moves of a reply of several lines were played:
	// AnswerStopped names the line not played (Stopped), then why.
	AnswerStopped     = "stopped"      // reading stopped at a line
	AnswerUnknownLine = "unknown_line" // the line is none of the seat's moves now
	AnswerTurnOver    = "turn_over"    // no move is awaited from the seat any more
	// AnswerAmbiguous: a move line's words fit several moves (Ambiguous,
	// Candidates), so it named none; the first line: nothing was played.
	AnswerAmbiguous = "ambiguous"

	// The seat's turn ended by itself: AnswerForced, after a move the
	// reply played, the game played the seat's only move for it (one for
	// each of Forced); AnswerTimedOut, the seat's time ran out before the
	// reply came and the deadline's policy played its turn (TimedOut), so
	// the reply played nothing.
	AnswerForced   = "forced"
	AnswerTimedOut = "timed_out"
	// AnswerDone: a line of the reply named the step the game had just
	// played for the seat (AnswerForced): it counts as done (Done), and
	// reading went on.
	AnswerDone = "done"

	// AnswerZone: the reply's zone line set the seat's time zone (Zone);
	// AnswerZoneBad: its zone line named no zone (Zone is what it said),
	// and nothing changed.
	AnswerZone    = "zone"
	AnswerZoneBad = "zone_bad"

	// The muster before the first turn (issue #46): the reply said the
	// seat's person will play (AnswerAccepted) or not (AnswerDeclined), or
	// its first line was neither "yes" nor "no" (AnswerMusterUnread: the
	// answer quotes what was read).
	AnswerAccepted     = "accepted"
	AnswerDeclined     = "declined"
	AnswerMusterUnread = "muster_unread"
	// An away or back line (issue #43 part 8): AnswerAway, the person is
	// away until Away in all their games; AnswerBack, they are back;
	// AnswerNotAway, a back line but they were not away; AnswerAwayUnread,
	// the line names no day (Away: what it said); AnswerAwayPast, the day
	// is today or past; AnswerAwayTooLong, beyond the allowance (Away:
	// the latest day allowed); AnswerAwayNoneLeft, no away time left;
	// AnswerAwayForbidden, no game of theirs takes an away;
	// AnswerAwayRefused, the service refused it (Detail). Nothing changed
	// but for AnswerAway and AnswerBack.
	AnswerAway          = "away"
	AnswerBack          = "back"
	AnswerNotAway       = "not_away"
	AnswerAwayUnread    = "away_unread"
	AnswerAwayPast      = "away_past"
	AnswerAwayTooLong   = "away_too_long"
	AnswerAwayNoneLeft  = "away_none_left"
	AnswerAwayForbidden = "away_forbidden"
	AnswerAwayRefused   = "away_refused"
)
