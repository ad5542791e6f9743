package play

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// Each player reads a game in their own language (issue #31): the seat's
// language, chosen by the organiser for the seat (NewPlayer.Language) and
// changed by the player from any page (SetLanguage). Pages, emails and
// answers to replies follow it; what the players wrote stays as written.

// checkLanguage refuses a language the service does not speak; field
// names the request's field.
func checkLanguage(field, lang string) error {
	if slices.Contains(languages, lang) {
		return nil
	}
	return events.FieldErrorf(events.CodeInvalid, field, "%s must be one of %s", field, strings.Join(languages, ", "))
}

// SetLanguage makes the player of the seat that token opens read game id
// in lang from now on: a pbem.language event, which the seat row keeps,
// and one in each other game the person (the seat's address) plays
// (followLanguage).
// Choosing the language the seat already reads changes nothing. Errors:
// events.CodeNotFound, events.CodeUnauthorized, events.CodeInvalid (a language the service does not
// speak).
func (s *Service) SetLanguage(ctx context.Context, id, token, lang, requestID string) error {
	if err := checkLanguage("language", lang); err != nil {
		return err
	}
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return err
	}
	data, err := json.Marshal(pbemevent.Language{Seat: seat, Language: lang})
	if err != nil {
		return fmt.Errorf("game: marshal language: %w", err)
	}
	ev := events.NewEvent{Type: pbemevent.TypeLanguage, Data: data,
		Meta: events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: requestID}}
	if err := s.appendAside(ctx, g, ev, func(g *projections.Game) bool { return g.SeatAt(seat).Language == lang }); err != nil {
		return err
	}
	// The person reads lang in their other games too (person.go).
	return s.followLanguage(ctx, g.SeatAt(seat).Email, id, lang, requestID)
}
