package outbox

import (
	"slices"
	"time"
)

// Payload is an outbox row's JSON payload: everything an email says. The
// game service writes it from the recipient's own view of the game, so it
// holds nothing the recipient may not see. NewPayload makes every one.
type Payload struct {
	To       Recipient `json:"to"`
	Language string    `json:"language"`
	Game     GameInfo  `json:"game"`
	// TokenGen is the recipient seat's token generation: the link in the
	// email is derived from it, so a resend (new generation) revokes it.
	// In an admin-link email, the admin token's generation (a revocation
	// makes a new one).
	TokenGen int   `json:"token_gen"`
	Version  int64 `json:"version"`
	// Deadline is the turn deadline, if the game has one.
	Deadline *time.Time `json:"deadline"`
	// Lines are human lines in the game's language (what happened).
	Lines   []string `json:"lines"`
	Ranking []Rank   `json:"ranking,omitempty"`
	// Columns head each Rank's Cells: the figures that decided the
	// ranking, deciding first (engine.Standings). Empty in a payload
	// written before them, whose ranks tell their Score.
	Columns []string `json:"columns,omitempty"`
	Summary string   `json:"summary,omitempty"`
	// Games lists the games waiting for the recipient (digest only).
	Games []WaitingGame `json:"games,omitempty"`
	// Moves are the labels of the recipient's legal moves, numbered from 1
	// in the email; Choice is their tag (projections.ChoiceTag), carried
	// by the reply address. Empty Choice: the email numbers no moves.
	Moves  []string `json:"moves,omitempty"`
	Choice string   `json:"choice,omitempty"`
	// Answer is the listener's answer to a reply (Reply only).
	Answer *Answer `json:"answer,omitempty"`
	// Awaited is true when the game awaits the recipient's decision: only
	// then does an email other than a your-turn email or a reminder say
	// "please play before" the deadline.
	Awaited bool `json:"awaited,omitempty"`
	// Notice names what a Notice email announces: "paused", "resumed" or
	// "extended".
	Notice string `json:"notice,omitempty"`
	// Policy is what happens at the deadline if the recipient has not
	// played (the game's timeout policy: "default_move", "skip", "pause"
	// or "bot"); a reminder says it. Empty: the email does not say.
	Policy string `json:"policy,omitempty"`
	// AwayDate is the day an Away email's person said they are back
	// ("2026-12-12"; "" in the email that they are back), and AwayDaysLeft
	// the days of away they have left; Games then lists their games with
	// what the away does in each (WaitingGame.Away).
	AwayDate     string `json:"away_date,omitempty"`
	AwayDaysLeft int    `json:"away_days_left,omitempty"`
	// AwayDays is the allowance: days of away in any 365.
	AwayDays int `json:"away_days,omitempty"`
	// Muster: the game waits for its players to accept before its first
	// turn (issue #46), until Deadline; an invitation then asks the
	// recipient to accept, on the game's page or by replying "yes".
	Muster bool `json:"muster,omitempty"`
}

// Recipient is the player an email goes to.
type Recipient struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// GameInfo names a game.
type GameInfo struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Players []string `json:"players"`
	// Bots holds, by seat, the level of the bot that plays it ("" for a
	// person); the player list marks bots (projections.SeatName).
	Bots []string `json:"bots,omitempty"`
}

// Rank is one line of a game's final ranking.
type Rank struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Place int    `json:"place"`
	Score int    `json:"score,omitempty"`
	// Cells are the seat's figures under the payload's Columns.
	Cells []string `json:"cells,omitempty"`
}

// WaitingGame is a game waiting for the recipient's move (digest).
type WaitingGame struct {
	Game     GameInfo   `json:"game"`
	Seat     int        `json:"seat"`
	TokenGen int        `json:"token_gen"`
	Deadline *time.Time `json:"deadline"`
	// Chat is the game's table talk of the last day (public lines).
	Chat []string `json:"chat,omitempty"`
	// Away is what the recipient's away does in the game (an Away email):
	// "wait" (its deadlines wait, until AwayWaits), "bot" or "forbid".
	Away      string     `json:"away,omitempty"`
	AwayWaits *time.Time `json:"away_waits,omitempty"`
}

// Head is what every email's payload begins with: whom it goes to, in
// which language, about which game (or proposal, or sign-in link) and
// which version of it, the generation of the link it carries, the
// deadline it tells and the lines it tells. The zero value of a field an
// email does not need (a digest's Game, an organiser's TokenGen) is right.
type Head struct {
	To       Recipient
	Language string
	Game     GameInfo
	TokenGen int
	Version  int64
	Deadline *time.Time
	Lines    []string
}

// NewPayload returns the payload h begins. It is the one place a Payload
// is made: the projector's emails, the reminders and digests, the
// organiser's, sign-in and left-seat emails and the answers to replies
// all start here, and set what their kind adds (a ranking, the moves, an
// answer, the waiting games) on the value it returns. So every email
// writes its head the same way: the deadline in UTC and to the second (as
// RFC 3339 writes it, and the emails tell it to the minute), the lines
// and the players a list, never null, and Game.Bots only when a seat is a
// bot's (the player list then marks them).
func NewPayload(h Head) Payload {
	p := Payload{To: h.To, Language: h.Language, Game: h.Game, TokenGen: h.TokenGen, Version: h.Version, Lines: h.Lines}
	if p.Lines == nil {
		p.Lines = []string{}
	}
	if p.Game.Players == nil {
		p.Game.Players = []string{}
	}
	if !slices.ContainsFunc(p.Game.Bots, func(b string) bool { return b != "" }) {
		p.Game.Bots = nil
	}
	if h.Deadline != nil {
		d := h.Deadline.UTC().Truncate(time.Second)
		p.Deadline = &d
	}
	return p
}
