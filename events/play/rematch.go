package play

import (
	"context"
	"encoding/json"
	"fmt"
	"pbem/events"
	"pbem/events/pbemevent"
	"slices"

	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Rematches (issue #15, #31). Once a game has ended, its organiser (the
// admin page, the API) or any of its players (the end page) may start
// one rematch: a new game of the same seats, options and settings with a
// new seed. The old game records pbem.rematch naming the new game's id
// before the new game is created, at the old game's version, so two
// players who ask at once start one game: the second finds the first's.
// A crash between the two leaves a pbem.rematch whose game does not exist
// yet; the next request creates it under that id.

// Rematch starts the rematch of game id (or finds the one already
// started: Again is then set), invitations sent and the new game's admin
// link emailed to the organiser. Errors: events.CodeNotFound, events.CodeUnauthorized,
// events.CodeConflict before the game has ended, events.CodeInvalid if an address now
// refuses invitations.
func (s *Service) Rematch(ctx context.Context, id, adminToken string) (*Confirmed, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	return s.rematch(ctx, g)
}

// SeatRematch is a player's rematch: the new game, and the seat the
// player has in it.
type SeatRematch struct {
	*Confirmed
	Seat int
	// Token opens Seat in the new game: the player who asked holds the
	// same seat there (its invitation carries the same token).
	Token string
}

// RematchAs starts the rematch of game id for the player whose play
// link token is (or finds the one already started), as Rematch does.
// Errors: events.CodeNotFound, events.CodeUnauthorized, events.CodeConflict before the game has ended,
// events.CodeInvalid if an address now refuses invitations.
func (s *Service) RematchAs(ctx context.Context, id, token string) (*SeatRematch, error) {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return nil, err
	}
	c, err := s.rematch(ctx, g)
	if err != nil {
		return nil, err
	}
	return &SeatRematch{Confirmed: c, Seat: seat, Token: tokens.Seat(s.secret, c.ID, seat, 0)}, nil
}

// rematch starts (or finds) the rematch of ended game g.
func (s *Service) rematch(ctx context.Context, g *projections.Game) (*Confirmed, error) {
	if !g.Ended() {
		return nil, events.Errorf(events.CodeConflict, "a rematch can start once the game has ended (this one is %s)", g.Status)
	}
	org, err := s.Organiser(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	req := RematchRequest(g, org)
	if err := s.validate(ctx, &req); err != nil {
		return nil, err
	}
	for range 3 {
		id, err := s.rematchOf(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		if id != "" {
			return s.rematchGame(ctx, g, req, id)
		}
		if id, err = s.newID(); err != nil {
			return nil, err
		}
		_, err = s.serviceEvent(ctx, g, "admin", pbemevent.TypeRematch, pbemevent.Rematch{Game: id})
		if ErrorCode(err) == events.CodeConflict {
			// Another request moved the game on (its own rematch, most
			// likely): look again.
			if g, err = s.game(ctx, g.ID); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.rematchGame(ctx, g, req, id)
	}
	return nil, events.Errorf(events.CodeConflict, "game %s changed while its rematch started: try again", g.ID)
}

// rematchOf is the id of the rematch game g's stream names ("" for none).
func (s *Service) rematchOf(ctx context.Context, id string) (string, error) {
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return "", err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == pbemevent.TypeRematch {
			var r pbemevent.Rematch
			if err := json.Unmarshal(evs[i].Data, &r); err != nil {
				return "", fmt.Errorf("game: %s v%d: %w", id, evs[i].Version, err)
			}
			return r.Game, nil
		}
	}
	return "", nil
}

// rematchGame is the rematch of g under id: the game if it exists
// (Again), else created now from req (checked), with the organiser's
// admin link in its first append.
func (s *Service) rematchGame(ctx context.Context, g *projections.Game, req CreateGame, id string) (*Confirmed, error) {
	if ng, err := s.game(ctx, id); err == nil {
		return &Confirmed{CreatedGame: &CreatedGame{ID: id, AdminToken: tokens.Admin(s.secret, id, 0), Game: ng}, Again: true}, nil
	} else if ErrorCode(err) != events.CodeNotFound {
		return nil, err
	}
	p, err := s.accounts.Proposal(ctx, id)
	if ErrorCode(err) == events.CodeNotFound {
		if p, err = s.proposalAs(id, &req); err == nil {
			p.ExpiresAt, p.ConfirmedAt = p.CreatedAt, &p.CreatedAt
			err = s.accounts.Propose(ctx, p, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	row := organiserMail(outbox.AdminLink, id, p, organiserLanguage(p.OrganiserEmail, req.Players, g.Language), g.Game, playerNames(req))
	cg, err := s.create(ctx, req, id, []outbox.Row{row})
	if ErrorCode(err) == events.CodeConflict {
		// A concurrent request created it first.
		return s.rematchGame(ctx, g, req, id)
	}
	if err != nil {
		return nil, fmt.Errorf("game: rematch %s of %s: %w", id, g.ID, err)
	}
	return &Confirmed{CreatedGame: cg}, nil
}

// RematchRequest is the request that deals game g again for the same
// seats in the same order, under organiser org: a seat without an address
// (a bot's from the start) is a bot of its level again, any other seat
// its person's (a seat handed to a bot during the game included), by name
// and address.
func RematchRequest(g *projections.Game, org Organiser) CreateGame {
	req := CreateGame{Game: g.Game, Language: g.Language, Options: g.Options, TurnDeadline: g.TurnDeadline,
		ReminderBefore: g.ReminderBefore, TimeoutPolicy: g.TimeoutPolicy, AwayPolicy: g.AwayPolicy, Organiser: org}
	seats := slices.Clone(g.Seats)
	slices.SortFunc(seats, func(a, b projections.Seat) int { return a.Seat - b.Seat })
	for _, st := range seats {
		p := NewPlayer{Name: st.Name, Email: st.Email, Language: st.Language}
		if st.Email == "" {
			p.Bot = st.Bot
		}
		req.Players = append(req.Players, p)
	}
	return req
}
