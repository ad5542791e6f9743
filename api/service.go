package api

import (
	"context"
	"time"

	"pbem/engine"
	"pbem/events/play"
	"pbem/projections"
)

// Service is the game service as the API and the pages use it
// (events/play.Service implements it): what they may ask of a game, in
// four parts. The other ways in declare their own, smaller views of the
// same service: play.Timeouter (the deadline scheduler), inbound.Service (email
// replies), bots.Config.Player (events/play/bots).
type Service interface {
	Play
	Reads
	Admin
	Accounts
	Records
}

var _ Service = (*play.Service)(nil)

// Play is what a seat does to a game: the commands of the play page, the
// API and the email links.
type Play interface {
	Move(ctx context.Context, id, token string, req play.MoveRequest) (*play.View, error)
	Takeback(ctx context.Context, id, token string, req play.TakebackRequest) (*play.View, error)
	Chat(ctx context.Context, id, token, text, requestID string) error
	RematchAs(ctx context.Context, id, token string) (*play.SeatRematch, error)
	// SetLanguage: the seat's player reads the game in lang from now on.
	SetLanguage(ctx context.Context, id, token, lang, requestID string) error
	// Answer: the seat's person will play (yes) or not, at the muster
	// before the first turn.
	Answer(ctx context.Context, id, token string, yes bool, requestID string) error
}

// Reads are what the pages and endpoints show of a game; they change
// nothing but a seat's last visit (SeatCatchUp).
type Reads interface {
	Summary(ctx context.Context, id string) (*play.Summary, error)
	View(ctx context.Context, id, token string) (*play.View, error)
	SeatPage(ctx context.Context, id, token string) (*play.SeatPage, error)
	SeatVersion(ctx context.Context, id, token string) (int64, error)
	SeatCatchUp(ctx context.Context, id, token string, version, keep int64) (*play.CatchUp, error)
	History(ctx context.Context, id, token string) (*play.History, error)
	TableTalk(ctx context.Context, id, token string) ([]play.ChatLine, error)
	Audit(ctx context.Context, id string) (*play.Audit, error)
	DescribeAudit(a *play.Audit, names []string, lang string) []string
	PublicReplay(ctx context.Context, id string, visit func(play.PublicStep)) error
	WaitingFor(ctx context.Context, id string) ([]play.Waiting, error)
	PauseReason(ctx context.Context, id string) (string, error)
	// MusterOf is the muster of a game that waits for its players to
	// accept (CodeConflict otherwise).
	MusterOf(ctx context.Context, id string) (*play.Muster, error)
	OldLinkOf(ctx context.Context, id, token string) (*play.OldLink, error)
	Authenticate(ctx context.Context, id, token string) (play.Auth, error)
	Organiser(ctx context.Context, id string) (play.Organiser, error)
	SeatEmails(ctx context.Context, id string) ([]string, error)
	Games() []string
	Settings(name, lang string) (engine.Settings, bool)
	Now() time.Time
}

// Admin are the organiser's commands on a game, each checked against the
// game's admin token.
type Admin interface {
	Pause(ctx context.Context, id, adminToken, reason string) (*play.Summary, error)
	Resume(ctx context.Context, id, adminToken string) (*play.Summary, error)
	Extend(ctx context.Context, id, adminToken string, by time.Duration) (*play.Summary, error)
	Abort(ctx context.Context, id, adminToken string) (*play.Summary, error)
	ReplacePlayer(ctx context.Context, id, adminToken string, seat int, name, email string) (*play.Summary, error)
	ChangeEmail(ctx context.Context, id, adminToken string, seat int, email string) (*play.Summary, error)
	ResendLink(ctx context.Context, id, adminToken string, seat int) (*play.Summary, error)
	RevokeAdminLink(ctx context.Context, id, adminToken string) (*play.Summary, error)
	SeatBot(ctx context.Context, id, adminToken string, seat int, level string) (*play.Summary, error)
	Rematch(ctx context.Context, id, adminToken string) (*play.Confirmed, error)
	AdminSeats(ctx context.Context, id, adminToken string) ([]play.AdminSeat, error)
	OrganiserSeat(ctx context.Context, id, adminToken string) (seat int, token string, err error)
}

// Accounts are the commands of people rather than seats: creating and
// confirming games, signing in to "my games", and refusing email.
type Accounts interface {
	Propose(ctx context.Context, req play.CreateGame) (*play.Proposed, error)
	// CheckGame checks a request as Propose would, changing nothing.
	CheckGame(ctx context.Context, req play.CreateGame) error
	Confirm(ctx context.Context, token string, again func(id string) error) (*play.Confirmed, error)
	// ProposalOf reads the game a confirmation link proposes (its page's
	// recap), changing nothing.
	ProposalOf(ctx context.Context, token string) (*play.Recap, error)
	RequestSignin(ctx context.Context, email, lang string) error
	SignIn(ctx context.Context, token string) (string, error)
	SignOut(ctx context.Context, session string) error
	MyGames(ctx context.Context, session string) (string, []projections.MyGame, error)
	MyGamesIn(ctx context.Context, session, lang string) (string, []projections.MyGame, error)
	SeatTokenFor(ctx context.Context, session, id string) (string, error)
	Organised(ctx context.Context, session string) ([]play.OrganisedGame, error)
	AdminTokenFor(ctx context.Context, session, id string) (string, error)
	IsBlocked(ctx context.Context, email string) (bool, error)
	SetBlocked(ctx context.Context, email string, blocked bool) error
	// AwayFor, BackFor and AwayStatusFor are a signed-in person's away
	// (events/play/away.go).
	AwayFor(ctx context.Context, session, date string, loc *time.Location) (*play.AwayStatus, error)
	BackFor(ctx context.Context, session string, loc *time.Location) (*play.AwayStatus, error)
	AwayStatusFor(ctx context.Context, session string, loc *time.Location) (*play.AwayStatus, error)
}

// Records are the club's memory (issue #46): a person's record, the
// ratings and the leaderboards, read models of the events.
type Records interface {
	// KeepsRecords: the server keeps records (the other methods answer
	// ENotFound otherwise).
	KeepsRecords() bool
	// MyRecord is the session's address's record (EUnauthorized without one).
	MyRecord(ctx context.Context, session string) (*projections.PersonRecord, error)
	// Reliability says in words how reliable each known address is.
	Reliability(ctx context.Context, emails []string) (map[string]string, error)
	Leaderboard(ctx context.Context, game string) ([]projections.Rating, error)
	SetListed(ctx context.Context, session string, listed bool) error
	Listed(ctx context.Context, session string) (bool, error)
	GameRatings(ctx context.Context, id string) ([]projections.RatingChange, error)
}
