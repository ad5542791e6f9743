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
	"pbem/events/pbemevent"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Running a game (issue #15): the organiser corrects a player's address,
// replaces a player who left, starts a rematch, and sees whom the game
// waits for. A correction or a replacement gives the seat a new token
// generation in the same append as its event: the old link stops working
// at once, and the new holder is emailed the new one (a link, or an
// invitation for a new player). Addresses are never in events.

// Waiting is a seat the game waits for, since the event that made it so.
type Waiting struct {
	Seat  int       `json:"seat"`
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
}

// WaitingFor lists the seats game id awaits and since when. Errors:
// events.CodeNotFound.
func (s *Service) WaitingFor(ctx context.Context, id string) ([]Waiting, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	since, err := s.repo.WaitingSince(ctx, id)
	if err != nil {
		return nil, err
	}
	out := []Waiting{}
	for _, seat := range g.ToMove {
		w := Waiting{Seat: seat, Since: g.UpdatedAt}
		if t, ok := since[seat]; ok {
			w.Since = t
		}
		if seat >= 0 && seat < len(g.Players) {
			w.Name = g.Players[seat]
		}
		out = append(out, w)
	}
	return out, nil
}

// checkAddress validates a player's address.
func checkAddress(field, email string) error {
	if problem := outbox.AddressProblem(email); problem != "" {
		return events.FieldErrorf(events.CodeInvalid, field, "%s: %s", field, problem)
	}
	return nil
}

// ChangeEmail corrects the address of seat: the seat gets a new link (the
// old one stops working), emailed to the new address. Errors: events.CodeNotFound,
// events.CodeUnauthorized, events.CodeInvalid (bad or refused address, or another seat's),
// events.CodeConflict if the game has ended.
func (s *Service) ChangeEmail(ctx context.Context, id, adminToken string, seat int, email string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	email = strings.TrimSpace(email)
	if err := checkAddress("email", email); err != nil {
		return nil, err
	}
	if err := s.refused(ctx, email); err != nil {
		return nil, err
	}
	g, gen, err := s.reseatRow(g, seat, "", email)
	if err != nil {
		return nil, err
	}
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeEmailChanged, pbemevent.EmailChanged{Seat: seat, TokenGen: gen})
}

// ReplacePlayer gives seat to a new person (name, email): the seat gets a
// new link (the old one stops working), sent with an invitation. Errors:
// events.CodeNotFound, events.CodeUnauthorized, events.CodeInvalid (bad name, name taken, bad or refused
// address, or another seat's), events.CodeConflict if the game has ended.
func (s *Service) ReplacePlayer(ctx context.Context, id, adminToken string, seat int, name, email string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	name, email = strings.TrimSpace(name), strings.TrimSpace(email)
	if !engine.PlainName(name, 40) {
		return nil, events.FieldErrorf(events.CodeInvalid, "name", "name: give a name of 1 to 40 characters on one line, without control, text-direction or invisible characters")
	}
	for i, n := range g.Players {
		if i != seat && strings.EqualFold(n, name) {
			return nil, events.FieldErrorf(events.CodeInvalid, "name", "name: %q is already taken", name)
		}
	}
	if err := checkAddress("email", email); err != nil {
		return nil, err
	}
	if err := s.refused(ctx, email); err != nil {
		return nil, err
	}
	var left projections.Seat
	if st := g.SeatAt(seat); st != nil {
		left = *st
	}
	g, gen, err := s.reseatRow(g, seat, name, email)
	if err != nil {
		return nil, err
	}
	if left.Email != "" {
		// The person who leaves is still told of a pause, a resume and the
		// end (projections' formerMails): the row keeps their address.
		gone := left
		gone.TokenHash, gone.Bot = nil, ""
		g.Former = append(slices.Clone(g.Former), gone)
	}
	ev := pbemevent.PlayerReplaced{Seat: seat, Name: name, Previous: left.Name, TokenGen: gen}
	sm, err := s.serviceEventWith(ctx, g, "admin", pbemevent.TypePlayerReplaced, ev, func(v int64) ([]outbox.Row, error) {
		return leftNotice(g, left, ev, v)
	})
	if err != nil {
		return nil, err
	}
	// The newcomer reads the seat in the language they read elsewhere
	// (person.go).
	lang, ok, err := s.personLanguage(ctx, email, id)
	if err != nil || !ok {
		return sm, err
	}
	if g, err = s.game(ctx, id); err != nil {
		return nil, err
	}
	if err := s.readLanguage(ctx, g, seat, lang, ""); err != nil {
		return nil, err
	}
	return s.Summary(ctx, id)
}

// leftNotice is the notice to the person who played seat left until
// replacement ev (at version v of game g, the row after it) tells them,
// at their address, which only this append still knows: no play link,
// since theirs stops working. None for a seat without an address.
func leftNotice(g *projections.Game, left projections.Seat, ev pbemevent.PlayerReplaced, v int64) ([]outbox.Row, error) {
	if left.Email == "" {
		return nil, nil
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("game: replacement notice: %w", err)
	}
	players := slices.Clone(g.Players)
	if ev.Seat >= 0 && ev.Seat < len(players) {
		players[ev.Seat] = ev.Name
	}
	m := outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: -1, Name: left.Name, Email: left.Email},
		Language: cmp.Or(left.Language, g.Language),
		Game:     outbox.GameInfo{ID: g.ID, Name: g.Game, Players: players, Bots: g.Bots()},
		TokenGen: left.TokenGen,
		Version:  v,
		Lines:    []string{projections.DescribeService(pbemevent.TypePlayerReplaced, data, g.Players, cmp.Or(left.Language, g.Language))},
	})
	m.Notice = projections.NoticeLeft
	return []outbox.Row{{GameID: g.ID, Kind: outbox.Notice, Payload: m, EventVersion: v}}, nil
}

// refused is events.CodeInvalid when email refuses invitations.
func (s *Service) refused(ctx context.Context, email string) error {
	b, err := s.IsBlocked(ctx, email)
	if err != nil {
		return err
	}
	if b {
		return events.FieldErrorf(events.CodeInvalid, "email", "email: %s does not accept invitations", email)
	}
	return nil
}

// reseatRow is a copy of g whose seat has the new address (and name, if
// set) and the next token generation's hash, with that generation. An
// address another seat of the game has is refused (events.CodeInvalid).
func (s *Service) reseatRow(g *projections.Game, seat int, name, email string) (*projections.Game, int, error) {
	if g.Ended() {
		return nil, 0, events.Errorf(events.CodeConflict, "the game has ended")
	}
	st := g.SeatAt(seat)
	if st == nil {
		return nil, 0, events.Errorf(events.CodeNotFound, "game %s has no seat %d", g.ID, seat)
	}
	// One seat per address, as Create checks: a mailbox holding two seats
	// of one game would read both hands.
	for _, o := range g.Seats {
		if o.Seat != seat && o.Email != "" && strings.EqualFold(o.Email, email) {
			return nil, 0, events.FieldErrorf(events.CodeInvalid, "email",
				"email: %s is already the address of seat %d (%s); a game has one seat per address", email, o.Seat, o.Name)
		}
	}
	gen := st.TokenGen + 1
	g = g.Clone() // the loaded row is shared (cached)
	for i := range g.Seats {
		if g.Seats[i].Seat == seat {
			g.Seats[i].TokenHash = tokens.Hash(tokens.Seat(s.secret, g.ID, seat, gen))
			g.Seats[i].Email = email
			if name != "" {
				g.Seats[i].Name = name
			}
		}
	}
	return g, gen, nil
}

// PauseReason is the reason the organiser gave for the pause of a paused
// game ("" for none). Errors: events.CodeNotFound.
func (s *Service) PauseReason(ctx context.Context, id string) (string, error) {
	g, err := s.game(ctx, id)
	if err != nil || !g.Paused() {
		return "", err
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return "", err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == pbemevent.TypePaused {
			return pauseReason(evs[i].Data), nil
		}
	}
	return "", nil
}

// pausedLeft is the time the last pause of game id kept for its resume
// (pbemevent.Paused.Left), 0 if none.
func (s *Service) pausedLeft(ctx context.Context, id string) (time.Duration, error) {
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return 0, err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type != pbemevent.TypePaused {
			continue
		}
		var p pbemevent.Paused
		if json.Unmarshal(evs[i].Data, &p) != nil || p.Left == "" {
			return 0, nil
		}
		left, err := time.ParseDuration(p.Left)
		if err != nil || left < 0 {
			return 0, nil
		}
		return left, nil
	}
	return 0, nil
}

// pauseReason reads the reason of a pbem.paused event's data.
func pauseReason(data []byte) string {
	var p pbemevent.Paused
	if err := json.Unmarshal(data, &p); err != nil {
		return ""
	}
	return p.Reason
}
