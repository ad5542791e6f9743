package projections

import (
	"time"

	"pbem/engine"
	"pbem/events"
)

// MyGame is one seat of an address in "My games". It is a read model:
// Repository.MyGames reads it from the game rows and their seats, which
// the events build, and nothing else (the organisers' own records, which
// no event holds, are the service's: play.Accounts).
type MyGame struct {
	GameID     string     `json:"game_id"`
	Game       string     `json:"game"`
	Language   string     `json:"language"`
	Status     string     `json:"status"`
	Players    []string   `json:"players"`
	Seat       int        `json:"seat"`
	ToMove     []int      `json:"to_move"`
	DeadlineAt *time.Time `json:"deadline_at"`
	// Last is the game's last event (nil if it has none): LastMove tells
	// it, the last line of the game's public history.
	Last       *events.Event  `json:"-"`
	LastMove   string         `json:"last_move"`
	LastMoveAt *time.Time     `json:"last_move_at"`
	Result     *engine.Result `json:"result,omitempty"`
	UpdatedAt  time.Time      `json:"updated_at"`
	// Bots holds, by seat, the level of the bot that plays it ("" for a
	// person): the address's own seat among them when the organiser handed
	// it to a bot (no turn of its own to play then).
	Bots []string `json:"bots"`
}

// BotPlayed reports whether a bot plays the address's own seat of m.
func (m *MyGame) BotPlayed() bool { return m.Seat >= 0 && m.Seat < len(m.Bots) && m.Bots[m.Seat] != "" }
