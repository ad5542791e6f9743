package pbemevent

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"pbem/events"
)

// The service's own event types, stored in each game's stream beside the
// engine's events.
const (
	TypeCreated    = "pbem.created"
	TypeTimeout    = "pbem.timeout"
	TypePaused     = "pbem.paused"
	TypeResumed    = "pbem.resumed"
	TypeExtended   = "pbem.extended"
	TypeAborted    = "pbem.aborted"
	TypeLinkResent = "pbem.link_resent"
	// TypeEmailChanged, TypePlayerReplaced and TypeRematch are the
	// organiser's corrections and rematches (issue #15).
	TypeEmailChanged   = "pbem.email_changed"
	TypePlayerReplaced = "pbem.player_replaced"
	TypeRematch        = "pbem.rematch"
	TypeSeatBot        = "pbem.seat_bot"
	// TypeTakeback is a seat taking back its last move (issue #14).
	TypeTakeback = "pbem.takeback"
	// TypeAdminLinkRevoked is the organiser revoking the game's admin
	// link: a new one, of the next token generation, is emailed to them.
	TypeAdminLinkRevoked = "pbem.admin_link_revoked"
	// TypeLanguage is a player choosing the language they read (issue #31).
	TypeLanguage = "pbem.language"
	// TypeAccepted, TypeDeclined and TypeMustered are the muster before
	// the first turn (issue #46, muster.go): a seat's person says they
	// will play, or that they will not, and the game begins.
	TypeAccepted = "pbem.accepted"
	TypeDeclined = "pbem.declined"
	TypeMustered = "pbem.mustered"
	// TypeHistoryCut is the service telling the players that a restore of
	// its database cut the game's history (issue #44, HistoryCut).
	TypeHistoryCut = "pbem.history_cut"
)

// HistoryCut is the data of pbem.history_cut: the database was restored
// to a point in time at which the game's last event was BackTo, while
// emails had already told its players of versions up to Lost. The moves
// and messages of the versions after BackTo are gone; the stream goes on
// from BackTo (so the version numbers after it are used again), and this
// event, the first of them, is what the players are told.
type HistoryCut struct {
	BackTo int64 `json:"back_to"`
	Lost   int64 `json:"lost"`
}

// ServicePrefix begins the type of every event of the service's own
// (pbem.*); the engines' event types never do.
const ServicePrefix = "pbem."

// IsServiceEvent reports whether typ is the type of a service event.
func IsServiceEvent(typ string) bool { return strings.HasPrefix(typ, ServicePrefix) }

// MusterAnswers are the service events that a seat's own answer to the
// muster writes: its yes or no, and the start that the last answer sets
// off in the same append. Like a move, such an answer ends what its seat
// still has to be told (EndsStory).
var MusterAnswers = []string{TypeAccepted, TypeDeclined, TypeMustered}

// IsAnswer reports whether typ is a seat's own answer to the muster, its
// yes or no (what an email to that seat leaves out of the lines it tells:
// projections' lineBook.toSeat).
func IsAnswer(typ string) bool { return typ == TypeAccepted || typ == TypeDeclined }

// EndsStory reports whether an event of type typ, written by a seat's own
// action, ends the story that seat is told "since your last move" (the
// your-turn email's, notify.Story; the page's, play.CatchUp): a move (an
// engine event) or its answer to the muster. Its other service events
// (table talk, a language chosen, a take-back) do not.
func EndsStory(typ string) bool {
	return !IsServiceEvent(typ) || slices.Contains(MusterAnswers, typ)
}

// Created is the data of pbem.created: everything needed to deal the game
// again. Seed is the secret hex seed; every redacted copy has it emptied,
// leaving SeedHash (hex SHA-256 of the 32 seed bytes).
type Created struct {
	Game           string          `json:"game"`
	RulesVersion   string          `json:"rules_version"`
	Players        []string        `json:"players"`
	Options        json.RawMessage `json:"options"`
	Language       string          `json:"language"`
	Seed           string          `json:"seed,omitempty"`
	SeedHash       string          `json:"seed_hash"`
	TurnDeadline   string          `json:"turn_deadline"`
	ReminderBefore string          `json:"reminder_before"`
	TimeoutPolicy  string          `json:"timeout_policy"`
	// Bots holds, by seat, the level of the bot that plays it ("" for a
	// person); absent when every seat is a person's. Public: everyone may
	// know who is a bot.
	Bots []string `json:"bots,omitempty"`
	// ChainFormat is the hash chain format of the game's stream:
	// events.FormatCommitted (2) for every game created since commitments,
	// the data of its events hashed only as HMACs under the key derived
	// from Seed (events.CommitKeyFrom); absent (format 1, data in clear)
	// in older games. Public.
	ChainFormat int `json:"chain_format,omitempty"`
	// Languages holds, by seat, the language its player reads ("" : the
	// game's); absent when no seat has its own. The seats row keeps the
	// current one (pbem.language changes it).
	Languages []string `json:"languages,omitempty"`
	// AwayPolicy is what a seat's person being away does in the game
	// (AwayWait, AwayBot or AwayForbidden); absent means AwayWait. Public.
	AwayPolicy string `json:"away_policy,omitempty"`
	// Muster, when set, is how long the game waits before its first turn
	// for every invited person to accept (a Go duration, counted from this
	// event's time); MusterDefault is what a seat whose person declined
	// or never answered gets then: "bot" (the normal bot plays it) or
	// "abort" (the game is aborted). Absent: the game begins at once.
	Muster        string `json:"muster,omitempty"`
	MusterDefault string `json:"muster_default,omitempty"`
}

// CommitKey is the commitment key of the game c creates, derived from its
// seed: nil for a format-1 game. Errors: a bad seed, a seed made for
// another chain format (CheckSeedFormat).
func (c *Created) CommitKey() (*events.CommitKey, error) {
	seed, err := DecodeSeed(c.Seed)
	if err != nil {
		return nil, err
	}
	if err := CheckSeedFormat(seed, c.Format()); err != nil {
		return nil, err
	}
	if c.Format() < events.FormatCommitted {
		return nil, nil
	}
	k := events.CommitKeyFrom(seed)
	return &k, nil
}

// Timeout is the data of pbem.timeout: the awaited seats whose deadline passed.
type Timeout struct {
	Seats  []int  `json:"seats"`
	Policy string `json:"policy"`
}

// Paused is the data of pbem.paused.
type Paused struct {
	By string `json:"by"` // "admin" or "timeout"
	// Reason is the organiser's word to the players (optional).
	Reason string `json:"reason,omitempty"`
	// Left is the time the awaited seats had left before the deadline
	// when the game was paused (a Go duration, extensions included;
	// absent in pauses recorded before it was kept, and in a timeout's
	// pause, which comes at the deadline): a resume gives it back, or the
	// game's turn deadline if that is longer.
	Left string `json:"left,omitempty"`
}

// EmailChanged is the data of pbem.email_changed: a seat's address was
// corrected (the address itself is personal data, kept in seats only) and
// the seat got a new token generation.
type EmailChanged struct {
	Seat     int `json:"seat"`
	TokenGen int `json:"token_gen"`
}

// PlayerReplaced is the data of pbem.player_replaced: a new person takes
// the seat, under Name, with a new token generation.
type PlayerReplaced struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Previous string `json:"previous"`
	TokenGen int    `json:"token_gen"`
}

// Rematch is the data of pbem.rematch: the new game of the same players.
type Rematch struct {
	Game string `json:"game"`
}

// Resumed is the data of pbem.resumed, with the new deadline.
type Resumed struct {
	DeadlineAt time.Time `json:"deadline_at"`
}

// Extended is the data of pbem.extended.
type Extended struct {
	By         string    `json:"by"`
	DeadlineAt time.Time `json:"deadline_at"`
}

// Aborted is the data of pbem.aborted.
type Aborted struct{}

// AdminLinkRevoked is the data of pbem.admin_link_revoked: the admin
// token's new generation (the links of every earlier one stop working).
type AdminLinkRevoked struct {
	TokenGen int `json:"token_gen"`
}

// Language is the data of pbem.language: the language the player of Seat
// reads from now on ("en", "fr" or "it").
type Language struct {
	Seat     int    `json:"seat"`
	Language string `json:"language"`
}

// LinkResent is the data of pbem.link_resent: the seat's new token generation.
type LinkResent struct {
	Seat     int `json:"seat"`
	TokenGen int `json:"token_gen"`
}

// RedactService returns the public form of a service event's data: the seed
// of pbem.created is removed.
func RedactService(typ string, data json.RawMessage) json.RawMessage {
	if typ != TypeCreated {
		return data
	}
	var c Created
	if err := json.Unmarshal(data, &c); err != nil {
		return json.RawMessage(`{}`)
	}
	c.Seed = ""
	b, err := json.Marshal(c)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// Takeback is the data of pbem.takeback: Seat took back its move, the
// engine events of versions From to Version (the version the move
// produced). The stream keeps them; every projection is computed as if
// they had not happened (see StateBefore). Their history rows stay, and
// the take-back gets its own.
type Takeback struct {
	Seat    int   `json:"seat"`
	Version int64 `json:"version"`
	From    int64 `json:"from"`
}

// TypeChat is the type of a table-talk message: a line a seat wrote to
// the whole table, from the play page or in a reply to an email. It is an
// event of the game's stream like any other: every seat sees it in its
// history, the audit shows it, and the projector mails it to the other
// seats.
const TypeChat = "pbem.chat"

// Chat is the data of pbem.chat. Text is already cleaned and limited by
// the game service (see play.CleanChat); it is plain text, escaped by
// whatever shows it.
type Chat struct {
	Seat int    `json:"seat"`
	Text string `json:"text"`
}

// SeatBot is the data of pbem.seat_bot: the organiser handed seat to a bot
// of level Bot, or back to its person (Bot ""), who then gets a fresh play
// link of generation TokenGen by email.
type SeatBot struct {
	Seat     int    `json:"seat"`
	Bot      string `json:"bot"`
	TokenGen int    `json:"token_gen,omitempty"`
}

// Away and back (issue #43 part 8): a person says they are away until a
// date, and each game of theirs records what that means for their seat
// there, by the away policy its organiser chose (Created.AwayPolicy).
const (
	// TypeAway is a seat's person going away: the game's deadlines wait
	// for the seat (Effect AwayWait, up to WaitUntil), or a bot plays it
	// until they are back (AwayBot; a pbem.seat_bot follows in the same
	// append, unless a bot already played the seat).
	TypeAway = "pbem.away"
	// TypeBack is the seat's person back: early (their word), or at the
	// end of their away (Expired). A seat a bot played for the away is
	// handed back by a pbem.seat_bot in the same append.
	TypeBack = "pbem.back"
)

// The away policies a game's organiser chooses (Created.AwayPolicy) and
// the effects of an away on a seat (Away.Effect).
const (
	// AwayWait: the game's deadlines wait for an away seat (the default).
	AwayWait = "wait"
	// AwayBot: a bot plays an away seat until its person is back.
	AwayBot = "bot"
	// AwayForbidden: away does not apply to the game (a tournament): its
	// deadlines run as usual; no pbem.away is recorded in it.
	AwayForbidden = "forbid"
)

// Away is the data of pbem.away. From and Until are the person's whole
// away, the same in each of their games (From is also its identity: a
// pbem.back names it); WaitUntil is when the deadlines stop waiting in
// this game (Until, or the game's bound if sooner), for Effect AwayWait.
type Away struct {
	Seat  int       `json:"seat"`
	From  time.Time `json:"from"`
	Until time.Time `json:"until"`
	// Date is the day the person said they are back, as they said it in
	// their zone ("2026-12-12"): the history tells it.
	Date      string     `json:"date"`
	Effect    string     `json:"effect"`
	WaitUntil *time.Time `json:"wait_until,omitempty"`
	// Handed is true when the away handed the seat to a bot (Effect
	// AwayBot and no bot played it before): its pbem.back hands it back.
	Handed bool `json:"handed,omitempty"`
}

// Back is the data of pbem.back: the away that began at From ends.
// Expired: it reached its Until (the scheduler's), else the person came
// back early.
type Back struct {
	Seat int       `json:"seat"`
	From time.Time `json:"from"`
	// At is when the away ended, by the service clock (the allowance
	// counts the away from From to At).
	At      time.Time `json:"at"`
	Expired bool      `json:"expired,omitempty"`
}
