package play

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Sign-in links and "My games" (issue #15).
//
// An address asks for a link (RequestSignin); the link's token is derived
// from the server secret and the link's random id, so that the email
// worker writes it without storing it, and only its hash is kept. The link
// works once (SignIn marks it used) and for SigninLifetime; it opens a
// session of SessionLifetime whose random token the browser keeps in a
// cookie (hash only in the database). A request answers the same whether
// the address has games or not: the link is emailed only when it has some.

// SigninLifetime is how long a sign-in link works.
const SigninLifetime = 30 * time.Minute

// SessionLifetime is how long a session of "My games" lasts.
const SessionLifetime = 30 * 24 * time.Hour

// RequestSignin emails a sign-in link to email, in lang, if the address
// has games and accepts mail from us. It answers the same either way, and
// in the same time: it does the same work for every address (the same
// reads, and one transaction that stores a link), and only whether the
// link is addressed and emailed differs: for an address without games, or
// one that refuses mail, the link is addressed to no one ("") and no email
// is queued, so that nobody can ever use it. Errors: events.CodeInvalid for a
// malformed address.
func (s *Service) RequestSignin(ctx context.Context, email, lang string) error {
	email = strings.ToLower(strings.TrimSpace(email))
	if problem := outbox.AddressProblem(email); problem != "" {
		return events.FieldErrorf(events.CodeInvalid, "email", "email: %s", problem)
	}
	has, err := s.accounts.HasGames(ctx, email)
	if err != nil {
		return err
	}
	blocked, err := s.IsBlocked(ctx, email)
	if err != nil {
		return err
	}
	id, err := s.newID()
	if err != nil {
		return err
	}
	now := s.now().UTC()
	exp := now.Add(SigninLifetime)
	m := outbox.NewPayload(outbox.Head{To: outbox.Recipient{Seat: -1, Email: email}, Language: lang,
		Game: outbox.GameInfo{ID: id}, Deadline: &exp})
	row := &outbox.Row{Kind: outbox.Signin, Payload: m, At: now}
	to := email
	if !has || blocked {
		to, row = "", nil
	}
	return s.accounts.CreateSignin(ctx, id, tokens.Hash(tokens.Signin(s.secret, id)), to, now, exp, row)
}

// SignIn uses a sign-in link's token and returns a new session's token.
// Errors: events.CodeUnauthorized for an unknown, used or expired link.
func (s *Service) SignIn(ctx context.Context, token string) (string, error) {
	if token == "" || len(token) > 200 {
		return "", events.Errorf(events.CodeUnauthorized, "this sign-in link is unknown, used or expired")
	}
	now := s.now().UTC()
	email, err := s.accounts.UseSignin(ctx, tokens.Hash(token), now)
	if ErrorCode(err) == events.CodeNotFound {
		return "", events.Errorf(events.CodeUnauthorized, "this sign-in link is unknown, used or expired: ask for a new one")
	}
	if err != nil {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("game: session token: %w", err)
	}
	sess := base64.RawURLEncoding.EncodeToString(b)
	if err := s.accounts.CreateSession(ctx, tokens.Hash(sess), email, now, now.Add(SessionLifetime)); err != nil {
		return "", err
	}
	return sess, nil
}

// SessionEmail returns the address of a live session. Errors: events.CodeUnauthorized.
func (s *Service) SessionEmail(ctx context.Context, session string) (string, error) {
	if session == "" || len(session) > 200 {
		return "", events.Errorf(events.CodeUnauthorized, "sign in first")
	}
	email, err := s.accounts.Session(ctx, tokens.Hash(session), s.now().UTC())
	if ErrorCode(err) == events.CodeNotFound {
		return "", events.Errorf(events.CodeUnauthorized, "sign in first: the session is unknown or has expired")
	}
	return email, err
}

// SignOut ends a session.
func (s *Service) SignOut(ctx context.Context, session string) error {
	return s.accounts.DeleteSession(ctx, tokens.Hash(session))
}

// MyGames lists every seat of the session's address, each game's last
// line in that game's language. Errors: events.CodeUnauthorized.
func (s *Service) MyGames(ctx context.Context, session string) (string, []projections.MyGame, error) {
	return s.MyGamesIn(ctx, session, "")
}

// MyGamesIn is MyGames with each game's last line told in lang, the
// reader's language (issue #43: "My games" reads in one language, not in
// each game's); "" tells each in its game's language. Errors:
// events.CodeUnauthorized.
func (s *Service) MyGamesIn(ctx context.Context, session, lang string) (string, []projections.MyGame, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return "", nil, err
	}
	gs, err := s.repo.MyGames(ctx, email)
	if err != nil {
		return "", nil, err
	}
	for i := range gs {
		if gs[i].LastMove, err = s.lastLine(&gs[i], lang); err != nil {
			return "", nil, err
		}
	}
	return email, gs, nil
}

// lastLine is the last line of the public history of m's game: its last
// event (m.Last), told as everyone sees it, in lang ("": the game's).
func (s *Service) lastLine(m *projections.MyGame, lang string) (string, error) {
	if m.Last == nil {
		return "", nil
	}
	if lang == "" {
		lang = m.Language
	}
	g := &projections.Game{ID: m.GameID, Game: m.Game, Language: lang, Players: m.Players, Version: m.Last.Version}
	rows, err := projections.SeatHistory(s.games, g, []events.Event{*m.Last}, engine.Spectator)
	if err != nil {
		return "", err
	}
	return rows[0].Summary, nil
}

// Organised lists the games the session's address organises, for "My
// games". Errors: events.CodeUnauthorized (no session).
func (s *Service) Organised(ctx context.Context, session string) ([]OrganisedGame, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return nil, err
	}
	return s.accounts.Organised(ctx, email)
}

// AdminTokenFor returns the admin token of game id when the session's
// address organises it. Errors: events.CodeUnauthorized (no session), events.CodeNotFound (no
// such game, or another organiser's).
func (s *Service) AdminTokenFor(ctx context.Context, session, id string) (string, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return "", err
	}
	p, err := s.accounts.Proposal(ctx, id)
	if err != nil {
		return "", err
	}
	if p.ConfirmedAt == nil || !strings.EqualFold(p.OrganiserEmail, email) {
		return "", events.Errorf(events.CodeNotFound, "you do not organise game %s", id)
	}
	gen, err := s.adminGen(ctx, id) // a revoked link has a newer generation
	if err != nil {
		return "", err
	}
	tok := tokens.Admin(s.secret, id, gen)
	if _, err := s.authAdmin(ctx, id, tok); err != nil {
		return "", err
	}
	return tok, nil
}

// SeatTokenFor returns the play-link token of the seat of game id that
// the session's address holds. Errors: events.CodeUnauthorized (no session),
// events.CodeNotFound (no such game, or no seat of this address in it).
func (s *Service) SeatTokenFor(ctx context.Context, session, id string) (string, error) {
	email, err := s.SessionEmail(ctx, session)
	if err != nil {
		return "", err
	}
	g, err := s.game(ctx, id)
	if err != nil {
		return "", err
	}
	for _, st := range g.Seats {
		if strings.EqualFold(st.Email, email) {
			return tokens.Seat(s.secret, id, st.Seat, st.TokenGen), nil
		}
	}
	return "", events.Errorf(events.CodeNotFound, "you have no seat in game %s", id)
}

// OrganiserSeat returns the seat of game id that its organiser holds (a
// person's seat of the organiser's address) and its play-link token, for
// the admin page's link to the organiser's own play page: the organiser
// gets that link by email anyway. Errors: events.CodeUnauthorized (not the
// game's admin token), events.CodeNotFound (no such game, or the
// organiser holds no seat).
func (s *Service) OrganiserSeat(ctx context.Context, id, adminToken string) (seat int, token string, err error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return 0, "", err
	}
	p, err := s.accounts.Proposal(ctx, id)
	if err != nil {
		return 0, "", err
	}
	for _, st := range g.Seats {
		if st.Bot == "" && st.Email != "" && strings.EqualFold(st.Email, p.OrganiserEmail) {
			return st.Seat, tokens.Seat(s.secret, id, st.Seat, st.TokenGen), nil
		}
	}
	return 0, "", events.Errorf(events.CodeNotFound, "the organiser holds no seat in game %s", id)
}
