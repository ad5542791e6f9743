package projections

import (
	"encoding/json"
	"slices"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections/outbox"
)

// Game statuses.
const (
	StatusActive   = "active"
	StatusPaused   = "paused"
	StatusFinished = "finished"
	StatusAborted  = "aborted"
	// StatusMuster: the game waits for its invited people to accept
	// before its first turn (pbemevent.Created.Muster); no move is taken
	// and its deadline is the muster's.
	StatusMuster = "muster"
)

// Timeout policies.
const (
	PolicyDefaultMove = "default_move"
	PolicySkip        = "skip"
	PolicyPause       = "pause"
	// PolicyBot: the normal bot plays each awaited seat's move.
	PolicyBot = "bot"
)

// Defaults and limits of the deadline settings.
const (
	DefaultTurnDeadline   = 72 * time.Hour
	DefaultReminderBefore = 24 * time.Hour
	// MaxExtensions is how many times an admin may extend a game's deadline.
	MaxExtensions = 3
	// MaxExtension is the longest single extension.
	MaxExtension = 7 * 24 * time.Hour
)

// Game is one game's row in the game-state and lobby projection.
type Game struct {
	ID           string
	Game         string // engine name
	RulesVersion string
	Language     string
	Options      json.RawMessage
	Players      []string // names by seat
	Status       string
	Version      int64
	// State is the engine state's snapshot: its JSON after StateVersion,
	// which may be below Version (table game_states, see SnapshotEvery).
	// The projector encodes the state only when a snapshot is due; the
	// state at Version is the snapshot plus the events after it, which the
	// game service applies (and keeps decoded, never encoded).
	State        json.RawMessage
	StateVersion int64
	ToMove       []int
	SeedHash     []byte
	Result       *engine.Result
	CreatedAt    time.Time
	UpdatedAt    time.Time
	FinishedAt   *time.Time

	TurnDeadline   time.Duration
	ReminderBefore time.Duration
	TimeoutPolicy  string
	// AwayPolicy is what a seat's person being away does in the game
	// (pbemevent.AwayWait, AwayBot or AwayForbidden; issue #43).
	AwayPolicy      string
	DeadlineAt      *time.Time
	ReminderAt      *time.Time
	ReminderVersion *int64 // reminded_version, written by the reminder worker
	Extensions      int

	// Seats and AdminHash are primary data, loaded with the row.
	Seats     []Seat
	AdminHash []byte
	// Former are the people who played a seat until the organiser gave it
	// to someone else (primary data, column former, set by the game
	// service with the replacement), each with the seat they left. They
	// are told when the game is paused or resumed, and how it ended, in
	// their language and without a link to play (formerMails).
	Former []Seat
	// CommitKey is the commitment key of the game's stream (see package
	// events), derived from its seed when pbem.created is projected; nil
	// for a game begun before commitments (chain format 1). Secret until
	// the game ends: the audit reveals it with the seed.
	CommitKey *events.CommitKey
}

// Seat is one player of a game: primary data, not rebuilt from events.
type Seat struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	TokenGen  int    `json:"token_gen"`
	TokenHash []byte `json:"token_hash"`
	// Bot is the level of the bot that plays this seat ("easy", "normal",
	// "strong"), "" for a person. A bot's seat gets no email.
	Bot string `json:"bot,omitempty"`
	// Language is the language its player reads ("en", "fr", "it"): the
	// pages, emails and answers to replies of this seat follow it. ""
	// means the game's (SeatLanguage).
	Language string `json:"language,omitempty"`
	// Away is the away of the seat's person going on in this game (nil:
	// none), and AwayPast the aways that ended (pbem.away, pbem.back):
	// projected from the events, stored with the seat (see away.go).
	Away     *SeatAway    `json:"away,omitempty"`
	AwayPast []AwayPeriod `json:"away_past,omitempty"`
}

// SeatLanguage is the language the player of seat n reads: the seat's own,
// else the game's.
func (g *Game) SeatLanguage(n int) string {
	if s := g.SeatAt(n); s != nil && s.Language != "" {
		return s.Language
	}
	return g.Language
}

// SnapshotEvery is how many events may follow the stored state snapshot
// before a move writes a new one. The state (about 1.4 KB of JSON in a
// four-player Lords of Scotland game) was written with the game row on
// every move: that row was 1,571 of the 4,301 bytes of WAL a move wrote
// (bench/peers/walstats.sh). Written every 32 events, the state costs 66
// bytes a move, and a game read without its cached state applies at most
// 31 events to its snapshot (events/play, catchUp).
const SnapshotEvery = 32

// SnapshotDue reports whether g's state must be stored now: at creation
// (no snapshot yet), when the game has ended (its final state stays), or
// once SnapshotEvery events follow the last snapshot.
func (g *Game) SnapshotDue() bool {
	return g.StateVersion == 0 || g.Ended() || g.Version-g.StateVersion >= SnapshotEvery
}

// Ended reports whether the game is over (finished or aborted).
func (g *Game) Ended() bool { return StatusEnded(g.Status) }

// StatusEnded reports whether status is one a game never leaves.
func StatusEnded(status string) bool { return status == StatusFinished || status == StatusAborted }

// Paused reports whether the game is paused.
func (g *Game) Paused() bool { return g.Status == StatusPaused }

func (g *Game) Clone() *Game {
	c := *g
	c.Players = slices.Clone(g.Players)
	c.ToMove = slices.Clone(g.ToMove)
	c.Seats = slices.Clone(g.Seats)
	c.Former = slices.Clone(g.Former)
	return &c
}

// HistoryRow is one event as one seat (or Spectator) may see it, computed
// from the event when read (see SeatHistory). A seat has its own row only
// where it differs from the public (Spectator) row.
type HistoryRow struct {
	GameID  string `json:"-"`
	Version int64  `json:"version"`
	Seat    int    `json:"-"`
	Type    string `json:"type"`
	Actor   string `json:"actor,omitempty"`
	// ActorName names the acting seat as it was named when it acted (a
	// later replacement does not change it), in the row's language: its
	// player for "seat:N", its name with the bot mark for a bot's move
	// on its seat ("Bot 3 (bot)": see ActorName); else "".
	ActorName  string          `json:"actor_name,omitempty"`
	Data       json.RawMessage `json:"data"`
	Summary    string          `json:"summary"`
	Hash       []byte          `json:"hash"`
	PrevHash   []byte          `json:"prev_hash"`
	RecordedAt time.Time       `json:"recorded_at"`
	// Step tells a step the game took itself after the act whose append
	// it is part of (pbemevent.GameStep): a round's end, a battle, the
	// next seat's turn beginning. Pages credit it to the game, emails tell
	// it under the game's heading.
	Step bool `json:"-"`
}

// Change is everything one append does to the projections.
type Change struct {
	// Game is the new row (its Seats and AdminHash are written only when
	// Create is set or a seat's token changed).
	Game *Game
	// Create is set by the first append of a game: insert the game and its seats.
	Create bool
	// SeatTokens lists seats whose token generation changed.
	SeatTokens []Seat
	// AdminToken is set when the admin link was revoked: Game.AdminHash
	// is written.
	AdminToken bool
	Outbox     []outbox.Row
	// Turns are the your-turn emails with a grace the append owes: kept
	// on the game row (games.turn_mail, outbox.Turn) by what identifies
	// them, not written to the outbox, so that a move that follows within
	// the grace replaces them; the mail worker writes the payload when it
	// claims one (TurnRow).
	Turns   []outbox.Turn
	Request *Request
	// TakenBack lists the moves this append took back: their emails still
	// pending are cancelled (marked skipped) in the same transaction.
	TakenBack []pbemevent.Takeback
}

// Request is a remembered answer to a move with an idempotency key.
type Request struct {
	GameID   string
	Seat     int
	Key      string
	Version  int64
	Response json.RawMessage
}
