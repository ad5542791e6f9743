package play

import (
	"context"
	"encoding/json"
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Revoking the admin link (issue #29).
//
// The admin token is derived like the play links, over the game id and a
// generation: generation 0 at creation, one more each time the organiser
// revokes the link (pbem.admin_link_revoked, which names the new
// generation). The games row keeps only the hash of the current token, so
// every earlier link stops working at once; the new link goes only by
// email to the organiser's address (never in the answer to the request),
// so that whoever held a leaked link and revokes it gets nothing. The
// current generation is the count of revocations in the game's stream,
// read when needed (a revocation, an admin link emailed again): rare, and
// it keeps the games row as it is.

// MaxAdminRevocations bounds the revocations of one game's admin link:
// each costs an email to the organiser (charged as an invitation by the
// ways in) and makes a refused old link take one more HMAC to recognise.
const MaxAdminRevocations = 50

// ErrAdminRevoked is the error of an admin link that a revocation
// replaced: a 401 whose message says to use the latest email's link.
var ErrAdminRevoked = events.Errorf(events.CodeUnauthorized,
	"this admin link was revoked: a newer one was emailed to the organiser; use the link of the latest email")

// RevokeAdminLink revokes game id's admin link (adminToken, the current
// one) and emails a new one to the organiser, in the same append. The
// answer holds no token. Errors: events.CodeNotFound, events.CodeUnauthorized (ErrAdminRevoked
// for a revoked link), events.CodeConflict past MaxAdminRevocations or on a lost race.
func (s *Service) RevokeAdminLink(ctx context.Context, id, adminToken string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	gen, err := s.adminGen(ctx, id)
	if err != nil {
		return nil, err
	}
	if gen >= MaxAdminRevocations {
		return nil, events.Errorf(events.CodeConflict, "this game's admin link was revoked %d times, the most it may be", MaxAdminRevocations)
	}
	gen++
	p, err := s.accounts.Proposal(ctx, id)
	if err != nil {
		return nil, err
	}
	row := adminLinkMail(g, p, gen)
	b, err := json.Marshal(pbemevent.AdminLinkRevoked{TokenGen: gen})
	if err != nil {
		return nil, fmt.Errorf("game: marshal %s: %w", pbemevent.TypeAdminLinkRevoked, err)
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	g = g.Clone() // the loaded row is shared (cached)
	g.AdminHash = tokens.Hash(tokens.Admin(s.secret, id, gen))
	ev := events.NewEvent{Type: pbemevent.TypeAdminLinkRevoked, Data: b, Meta: events.Metadata{Actor: "admin"}}
	ng, _, _, err := s.append(ctx, g, st, []events.NewEvent{ev}, []engine.Event{nil}, func(c *projections.Change, _ engine.State) error {
		c.Outbox = append(c.Outbox, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return summarize(ng), nil
}

// adminGen is the generation of game id's current admin token: the number
// of revocations in its stream.
func (s *Service) adminGen(ctx context.Context, id string) (int, error) {
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return 0, err
	}
	gen := 0
	for _, e := range evs {
		if e.Type != pbemevent.TypeAdminLinkRevoked {
			continue
		}
		var x pbemevent.AdminLinkRevoked
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return 0, fmt.Errorf("game: %s v%d: %w", id, e.Version, err)
		}
		gen = x.TokenGen
	}
	return gen, nil
}

// adminLinkMail is the outbox row that emails game g's admin link of
// generation gen to the organiser of proposal p (the renderer derives the
// link from the payload's token generation).
func adminLinkMail(g *projections.Game, p *Proposal, gen int) outbox.Row {
	var readers []NewPlayer // the people's seats, for the organiser's language
	for _, st := range g.Seats {
		if st.Bot == "" {
			readers = append(readers, NewPlayer{Email: st.Email, Language: st.Language})
		}
	}
	row := organiserMail(outbox.AdminLink, g.ID, p, organiserLanguage(p.OrganiserEmail, readers, g.Language), g.Game, g.Players)
	row.Payload.TokenGen = gen
	return row
}

// revokedAdmin reports whether token is one of game id's admin tokens of a
// generation below the current one's (at most MaxAdminRevocations HMACs,
// no database read): a revoked link gets ErrAdminRevoked rather than the
// answer to a token that never was one.
func (s *Service) revokedAdmin(id, token string) bool {
	for gen := 0; gen < MaxAdminRevocations; gen++ {
		if tokens.Matches(token, tokens.Hash(tokens.Admin(s.secret, id, gen))) {
			return true
		}
	}
	return false
}
