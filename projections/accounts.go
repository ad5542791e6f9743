package projections

import (
	"context"
	"encoding/json"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/projections/outbox"
)

// Proposal is a game as its organiser asked for it, kept until they
// confirm it by the emailed link; ID becomes the game's id. It is primary
// data (it holds emails), not rebuilt from events.
type Proposal struct {
	ID             string
	TokenHash      []byte
	OrganiserName  string
	OrganiserEmail string
	// Request is the create request, as the service wrote it.
	Request     json.RawMessage
	CreatedAt   time.Time
	ExpiresAt   time.Time
	ConfirmedAt *time.Time
}

// MyGame is one seat of an address in "My games".
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

// OrganisedGame is a game its organiser sees in "My games" with its
// admin page's link (issue #31).
type OrganisedGame struct {
	GameID  string   `json:"game_id"`
	Game    string   `json:"game"`
	Status  string   `json:"status"`
	Players []string `json:"players"`
}

// BotPlayed reports whether a bot plays the address's own seat of m.
func (m *MyGame) BotPlayed() bool { return m.Seat >= 0 && m.Seat < len(m.Bots) && m.Bots[m.Seat] != "" }

// Accounts stores what the organiser and sign-in flows need beside the
// games: proposals, blocked addresses, sign-in links and sessions.
// Addresses are compared lower-cased. Errors: a *Fault of ErrNotFound for
// an unknown (or expired, or used) key.
type Accounts interface {
	// Propose stores p and queues its confirmation email, in one
	// transaction (a p.ConfirmedAt already set stores a confirmed game:
	// a rematch, and mail may be nil).
	Propose(ctx context.Context, p *Proposal, mail *outbox.Row) error
	// ClaimProposal marks the proposal whose token hashes to tokenHash
	// confirmed at now, if it is not yet and has not expired, and returns
	// it. A proposal confirmed before is returned as it is.
	ClaimProposal(ctx context.Context, tokenHash []byte, now time.Time) (*Proposal, error)
	// Proposal returns the proposal (the organiser) of game id.
	Proposal(ctx context.Context, id string) (*Proposal, error)
	// ProposalByToken returns, unchanged, the proposal whose token hashes
	// to tokenHash, if it is confirmed or has not expired at now (the
	// confirmation page's recap).
	ProposalByToken(ctx context.Context, tokenHash []byte, now time.Time) (*Proposal, error)
	// QueueMail writes outbox rows on their own.
	QueueMail(ctx context.Context, rows ...outbox.Row) error
	// Blocked returns those of emails that refuse invitations.
	Blocked(ctx context.Context, emails []string) ([]string, error)
	// SetBlocked blocks or unblocks invitations to email.
	SetBlocked(ctx context.Context, email string, blocked bool, now time.Time) error
	// CreateSignin stores a sign-in link and queues its email.
	CreateSignin(ctx context.Context, id string, tokenHash []byte, email string, now, expires time.Time, mail outbox.Row) error
	// UseSignin marks the link used at now and returns its address:
	// ErrNotFound for an unknown, used or expired link.
	UseSignin(ctx context.Context, tokenHash []byte, now time.Time) (string, error)
	// CreateSession stores a session of email.
	CreateSession(ctx context.Context, tokenHash []byte, email string, now, expires time.Time) error
	// Session returns a live session's address, or ErrNotFound.
	Session(ctx context.Context, tokenHash []byte, now time.Time) (string, error)
	// DeleteSession ends a session.
	DeleteSession(ctx context.Context, tokenHash []byte) error
	// MyGames lists every seat of email, the active games first, with
	// each game's last event, without LastMove (the service tells it).
	MyGames(ctx context.Context, email string) ([]MyGame, error)
	// Organised lists the games email organises (confirmed proposals),
	// running games first, then the newest.
	Organised(ctx context.Context, email string) ([]OrganisedGame, error)
	// HasGames reports whether email has a seat or organises a game.
	HasGames(ctx context.Context, email string) (bool, error)
	// WaitingSince maps each seat game id awaits to the time of the
	// event since which it waits.
	WaitingSince(ctx context.Context, id string) (map[int]time.Time, error)
}
