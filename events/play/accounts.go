package play

import (
	"context"
	"encoding/json"
	"time"

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

// OrganisedGame is a game its organiser sees in "My games" with its
// admin page's link (issue #31).
type OrganisedGame struct {
	GameID  string   `json:"game_id"`
	Game    string   `json:"game"`
	Status  string   `json:"status"`
	Players []string `json:"players"`
}

// Accounts stores the service's own records of the people beside the
// games, which no event holds and no rebuild restores: the organisers'
// proposals, blocked addresses, sign-in links and sessions (issue #15).
// events/play/postgres implements it. Addresses are compared lower-cased.
// Errors: an *events.Error of code CodeNotFound for an unknown (or expired, or used) key.
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
	// CreateSignin stores a sign-in link and queues its email, in one
	// transaction. With email "" and mail nil it stores a link addressed
	// to no one, which UseSignin never returns (RequestSignin's same work
	// for an unknown address).
	CreateSignin(ctx context.Context, id string, tokenHash []byte, email string, now, expires time.Time, mail *outbox.Row) error
	// UseSignin marks the link used at now and returns its address:
	// events.CodeNotFound for an unknown, used or expired link.
	UseSignin(ctx context.Context, tokenHash []byte, now time.Time) (string, error)
	// CreateSession stores a session of email.
	CreateSession(ctx context.Context, tokenHash []byte, email string, now, expires time.Time) error
	// Session returns a live session's address, or events.CodeNotFound.
	Session(ctx context.Context, tokenHash []byte, now time.Time) (string, error)
	// DeleteSession ends a session.
	DeleteSession(ctx context.Context, tokenHash []byte) error
	// Organised lists the games email organises (confirmed proposals),
	// running games first, then the newest.
	Organised(ctx context.Context, email string) ([]OrganisedGame, error)
	// HasGames reports whether email has a seat or organises a game.
	HasGames(ctx context.Context, email string) (bool, error)
}
