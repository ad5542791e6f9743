package play

import (
	"context"
	"encoding/json"
	"fmt"
	"pbem/events/pbemevent"
	"strings"
	"time"
	"unicode/utf8"

	"pbem/engine"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Pause pauses an active game: no deadline runs and no move is taken until
// Resume. reason (optional, one line of at most 200 characters) is shown
// to the players. Errors: events.CodeNotFound, events.CodeUnauthorized, events.CodeInvalid for a bad
// reason, events.CodeConflict if not active.
func (s *Service) Pause(ctx context.Context, id, adminToken, reason string) (*Summary, error) {
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > 200 || !utf8.ValidString(reason) || strings.ContainsAny(reason, "\r\n\t") {
		return nil, events.FieldErrorf(events.CodeInvalid, "reason", "reason: give one line of at most 200 characters")
	}
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	if g.Status != projections.StatusActive {
		return nil, events.Errorf(events.CodeConflict, "only an active game can be paused (this one is %s)", g.Status)
	}
	pe := pbemevent.Paused{By: "admin", Reason: reason}
	if g.DeadlineAt != nil {
		if left := g.DeadlineAt.Sub(s.now()).Truncate(time.Second); left > 0 {
			pe.Left = left.String()
		}
	}
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypePaused, pe)
}

// Resume resumes a paused game and tells the awaited seats. The new
// deadline gives back the time that was left when the game was paused
// (an extension included), or the game's turn deadline if that is longer:
// a pause never shortens a turn nor drops an extension. Errors: events.CodeNotFound,
// events.CodeUnauthorized, events.CodeConflict if not paused.
func (s *Service) Resume(ctx context.Context, id, adminToken string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	if g.Status != projections.StatusPaused {
		return nil, events.Errorf(events.CodeConflict, "only a paused game can be resumed (this one is %s)", g.Status)
	}
	left, err := s.pausedLeft(ctx, id)
	if err != nil {
		return nil, err
	}
	d := s.now().UTC().Add(max(g.TurnDeadline, left)).Truncate(time.Microsecond)
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeResumed, pbemevent.Resumed{DeadlineAt: d})
}

// Extend moves an active game's deadline later by by (1 minute to
// MaxExtension), at most MaxExtensions times per game. Errors: events.CodeNotFound,
// events.CodeUnauthorized, events.CodeInvalid for a bad duration, events.CodeConflict if not active or out
// of extensions.
func (s *Service) Extend(ctx context.Context, id, adminToken string, by time.Duration) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	if by < time.Minute || by > projections.MaxExtension {
		return nil, events.Errorf(events.CodeInvalid, "by: give a duration from 1m to %s", projections.MaxExtension)
	}
	if g.Status != projections.StatusActive || g.DeadlineAt == nil {
		return nil, events.Errorf(events.CodeConflict, "only an active game's deadline can be extended (this one is %s)", g.Status)
	}
	if g.Extensions >= projections.MaxExtensions {
		return nil, events.Errorf(events.CodeConflict, "this game has had its %d extensions", projections.MaxExtensions)
	}
	d := g.DeadlineAt.UTC().Add(by).Truncate(time.Microsecond)
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeExtended, pbemevent.Extended{By: by.String(), DeadlineAt: d})
}

// Abort ends a game without a result and tells every player. Errors:
// events.CodeNotFound, events.CodeUnauthorized, events.CodeConflict if it has already ended.
func (s *Service) Abort(ctx context.Context, id, adminToken string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	if g.Ended() {
		return nil, events.Errorf(events.CodeConflict, "the game has already ended")
	}
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeAborted, pbemevent.Aborted{})
}

// ResendLink gives seat a new play link (the old one stops working) and
// emails it. Errors: events.CodeNotFound (also for a bad seat), events.CodeUnauthorized.
func (s *Service) ResendLink(ctx context.Context, id, adminToken string, seat int) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	st := g.SeatAt(seat)
	if st == nil {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	gen := st.TokenGen + 1
	g = g.Clone() // the loaded row is shared (cached)
	for i := range g.Seats {
		if g.Seats[i].Seat == seat {
			g.Seats[i].TokenHash = tokens.Hash(tokens.Seat(s.secret, id, seat, gen))
		}
	}
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeLinkResent, pbemevent.LinkResent{Seat: seat, TokenGen: gen})
}

// serviceEvent appends one pbem.* event at g's version.
func (s *Service) serviceEvent(ctx context.Context, g *projections.Game, actor, typ string, data any) (*Summary, error) {
	return s.serviceEventWith(ctx, g, actor, typ, data, nil)
}

// serviceEventWith is serviceEvent with outbox rows of the caller's in the
// same append (mail; the event's version is given to it).
func (s *Service) serviceEventWith(ctx context.Context, g *projections.Game, actor, typ string, data any,
	mail func(version int64) ([]outbox.Row, error)) (*Summary, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("play: marshal %s: %w", typ, err)
	}
	_, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	ev := events.NewEvent{Type: typ, Data: b, Meta: events.Metadata{Actor: actor}}
	var extra func(*projections.Change, engine.State) error
	if mail != nil {
		extra = func(ch *projections.Change, _ engine.State) error {
			rows, err := mail(g.Version + 1)
			ch.Outbox = append(ch.Outbox, rows...)
			return err
		}
	}
	ng, _, _, err := s.append(ctx, g, st, []events.NewEvent{ev}, []engine.Event{nil}, extra)
	if err != nil {
		return nil, err
	}
	return summarize(ng), nil
}
