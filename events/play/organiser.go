package play

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// The organiser (issue #15).
//
// A game asked for by a way in (the lobby, POST /api/v1/games) is first a
// proposal: nothing but a confirmation link is sent, and only to the
// organiser. Confirming it (Confirm, with the token of that link) creates
// the game under the proposal's id: the invitations and the organiser's
// admin link are queued in the game's first append. A proposal confirmed
// once stays confirmed: confirming it again only queues the admin link
// again. A proposal not confirmed within ProposalLifetime is refused.
//
// The confirmation token is derived like the play links (HMAC of the
// server secret over the proposal id) so that the email worker can write
// it without storing it; the database keeps its hash.

// ProposalLifetime is how long a confirmation link works.
const ProposalLifetime = 48 * time.Hour

// Organiser is who runs a game: they confirm it and get its admin link.
type Organiser struct {
	Name  string
	Email string
}

// check validates and tidies the organiser: both of its fields' reasons
// (JoinRefusals).
func (o *Organiser) check() error {
	o.Name = strings.TrimSpace(o.Name)
	o.Email = strings.TrimSpace(o.Email)
	var errs []error
	if problem := outbox.AddressProblem(o.Email); problem != "" {
		errs = append(errs, events.FieldErrorf(events.CodeInvalid, "organiser.email", "organiser.email: %s", problem))
	}
	if !engine.PlainName(o.Name, 40) {
		errs = append(errs, events.FieldErrorf(events.CodeInvalid, "organiser.name", "organiser.name: give a name of 1 to 40 characters on one line, without control, text-direction or invisible characters"))
	}
	return JoinRefusals(errs...)
}

// Proposed is the answer to Propose: the proposal's id (the future
// game's) and when its confirmation link expires.
type Proposed struct {
	ID        string    `json:"id"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Propose checks req as Create does and keeps it until the organiser
// confirms it, queueing only the confirmation email to the organiser (in
// their language as a player, else req.MessageLanguage, else the game's:
// organiserLanguage). Errors: as Create.
func (s *Service) Propose(ctx context.Context, req CreateGame) (*Proposed, error) {
	p, err := s.proposal(ctx, &req)
	if err != nil {
		return nil, err
	}
	id := p.ID
	p.ExpiresAt = p.CreatedAt.Add(ProposalLifetime)
	lang := organiserLanguage(p.OrganiserEmail, req.Players, cmp.Or(req.MessageLanguage, req.Language))
	names := make([]string, len(req.Players))
	for i, pl := range req.Players {
		names[i] = pl.Name
	}
	row := organiserMail(outbox.Confirm, id, p, lang, req.Game, names)
	row.At = s.now().UTC()
	if err := s.accounts.Propose(ctx, p, &row); err != nil {
		return nil, err
	}
	return &Proposed{ID: id, ExpiresAt: p.ExpiresAt}, nil
}

// CheckGame checks req as Propose does and changes nothing: nil, or
// every reason Propose would refuse req for (JoinRefusals), for a form
// that has found problems of its own and shows them all at once.
// Errors: as Create.
func (s *Service) CheckGame(ctx context.Context, req CreateGame) error {
	req.Players = slices.Clone(req.Players) // validate completes them
	return s.validate(ctx, &req)
}

// Confirmed is the answer to Confirm.
type Confirmed struct {
	*CreatedGame
	// Again is true when the game had been confirmed before: only the
	// admin link was sent again.
	Again bool
}

// Confirm creates the game a confirmation link's token stands for, and
// queues the invitations and the organiser's admin link; a game confirmed
// before gets its admin link queued again, if again (when set) allows it
// (a rate limit: its error is returned). Errors: events.CodeUnauthorized for an
// unknown or expired token; events.CodeInvalid if an address has refused
// invitations since the proposal.
func (s *Service) Confirm(ctx context.Context, token string, again func(id string) error) (*Confirmed, error) {
	p, err := s.findProposal(ctx, token, s.accounts.ClaimProposal)
	if err != nil {
		return nil, err
	}
	if g, err := s.game(ctx, p.ID); err == nil {
		if again != nil {
			if err := again(p.ID); err != nil {
				return nil, err
			}
		}
		return s.confirmedAgain(ctx, p, g)
	} else if ErrorCode(err) != events.CodeNotFound {
		return nil, err
	}
	var req CreateGame
	if err := proposedGame(p, &req); err != nil {
		return nil, err
	}
	if err := s.checkBlocked(ctx, &req); err != nil {
		return nil, err
	}
	row := organiserMail(outbox.AdminLink, p.ID, p, organiserLanguage(p.OrganiserEmail, req.Players, req.Language), req.Game, playerNames(req))
	cg, err := s.create(ctx, req, p.ID, []outbox.Row{row})
	if ErrorCode(err) == events.CodeConflict {
		// A concurrent Confirm of the same link created it first.
		if g, gerr := s.game(ctx, p.ID); gerr == nil {
			return &Confirmed{CreatedGame: &CreatedGame{ID: p.ID, AdminToken: tokens.Admin(s.secret, p.ID, 0), Game: g}, Again: true}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return &Confirmed{CreatedGame: cg}, nil
}

// Recap is a proposed game as its confirmation page shows it.
type Recap struct {
	// Game is the create request as proposed (players, bots, languages,
	// options, deadline, policy).
	Game CreateGame
	// Organiser is the organiser who proposed it.
	Organiser Organiser
	// ExpiresAt is when the confirmation link stops working.
	ExpiresAt time.Time
	// Confirmed: the game was created already.
	Confirmed bool
}

// ProposalOf returns the game a confirmation link's token proposes,
// changing nothing (the page shows it before its button). Errors:
// events.CodeUnauthorized for an unknown or expired token.
func (s *Service) ProposalOf(ctx context.Context, token string) (*Recap, error) {
	p, err := s.findProposal(ctx, token, s.accounts.ProposalByToken)
	if err != nil {
		return nil, err
	}
	r := &Recap{Organiser: Organiser{Name: p.OrganiserName, Email: p.OrganiserEmail}, ExpiresAt: p.ExpiresAt, Confirmed: p.ConfirmedAt != nil}
	if err := proposedGame(p, &r.Game); err != nil {
		return nil, err
	}
	return r, nil
}

// findProposal finds, with find (the repository's claim or read), the
// proposal a confirmation link's token stands for. Errors: events.CodeUnauthorized
// for no token, or an unknown or expired one.
func (s *Service) findProposal(ctx context.Context, token string,
	find func(ctx context.Context, tokenHash []byte, now time.Time) (*Proposal, error)) (*Proposal, error) {
	if token == "" {
		return nil, events.Errorf(events.CodeUnauthorized, "give the token of the confirmation link")
	}
	p, err := find(ctx, tokens.Hash(token), s.now().UTC())
	if err != nil {
		if ErrorCode(err) == events.CodeNotFound {
			return nil, events.Errorf(events.CodeUnauthorized, "this confirmation link is unknown or has expired")
		}
		return nil, err
	}
	return p, nil
}

// proposedGame decodes the create request a proposal stored.
func proposedGame(p *Proposal, req *CreateGame) error {
	if err := json.Unmarshal(p.Request, req); err != nil {
		return fmt.Errorf("game: proposal %s: %w", p.ID, err)
	}
	return nil
}

// confirmedAgain queues the admin link of a confirmed game again.
// It is the current admin link: one the organiser revoked is not sent again.
func (s *Service) confirmedAgain(ctx context.Context, p *Proposal, g *projections.Game) (*Confirmed, error) {
	gen, err := s.adminGen(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	row := adminLinkMail(g, p, gen)
	row.At = s.now().UTC()
	if err := s.accounts.QueueMail(ctx, row); err != nil {
		return nil, err
	}
	return &Confirmed{CreatedGame: &CreatedGame{ID: g.ID, AdminToken: tokens.Admin(s.secret, g.ID, gen), Game: g}, Again: true}, nil
}

// Settings describes what game name lets its creator choose, labelled in
// lang; false for an unknown game.
func (s *Service) Settings(name, lang string) (engine.Settings, bool) {
	eng, ok := s.games[name]
	if !ok {
		return engine.Settings{}, false
	}
	return eng.Settings(lang), true
}

// Organiser returns the organiser of game id. Errors: events.CodeNotFound.
func (s *Service) Organiser(ctx context.Context, id string) (Organiser, error) {
	p, err := s.accounts.Proposal(ctx, id)
	if err != nil {
		return Organiser{}, err
	}
	return Organiser{Name: p.OrganiserName, Email: p.OrganiserEmail}, nil
}

// SetBlocked blocks (or unblocks) every invitation to email; the caller
// has checked that the request comes from that address (a signed link).
func (s *Service) SetBlocked(ctx context.Context, email string, blocked bool) error {
	return s.accounts.SetBlocked(ctx, email, blocked, s.now().UTC())
}

// IsBlocked reports whether email refuses invitations.
func (s *Service) IsBlocked(ctx context.Context, email string) (bool, error) {
	b, err := s.accounts.Blocked(ctx, []string{email})
	return len(b) > 0, err
}

// organiserLanguage is the language the organiser at email reads: that of
// the player with the same address who chose one (an organiser who plays
// reads the game's emails in it), else fallback (the lobby page's
// language for the confirmation, else the game's).
func organiserLanguage(email string, players []NewPlayer, fallback string) string {
	for _, pl := range players {
		if pl.Language != "" && pl.Email != "" && strings.EqualFold(pl.Email, email) {
			return pl.Language
		}
	}
	return fallback
}

// organiserMail is an outbox row of kind to the organiser of p about game
// id (a proposal's confirmation link, or a game's admin link).
func organiserMail(kind outbox.Kind, id string, p *Proposal, lang, gameName string, players []string) outbox.Row {
	h := outbox.Head{
		To:       outbox.Recipient{Seat: -1, Name: p.OrganiserName, Email: p.OrganiserEmail},
		Language: lang,
		Game:     outbox.GameInfo{ID: id, Name: gameName, Players: players},
	}
	if kind == outbox.Confirm {
		h.Deadline = &p.ExpiresAt
	}
	return outbox.Row{GameID: id, Kind: kind, Payload: outbox.NewPayload(h)}
}

func playerNames(req CreateGame) []string {
	out := make([]string, len(req.Players))
	for i, p := range req.Players {
		out[i] = p.Name
	}
	return out
}
