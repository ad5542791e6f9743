package play

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// A person's language follows the person (issue #43), by address, across
// seats and games, until they change it:
//
//   - a language chosen on one seat (SetLanguage) is the language of every
//     seat of the same address in the games still going on (a
//     pbem.language event in each game whose seat reads another);
//   - a new seat of a person who chose a language (a game created with no
//     language for them, a seat they take over as a replacement) reads
//     the language they chose, as the game of theirs that changed last
//     tells it.
//
// The time zone follows the person the same way, on the mail side
// (notify/postgres.Seats.SetZone).

// personLanguage is the language the person at email chose to read (a
// seat's own language, set by the organiser for them or by themselves),
// in the game of theirs that changed last, other than game except: ok is
// false for an address with no such seat (a seat that reads its game's
// language tells nothing of the person).
func (s *Service) personLanguage(ctx context.Context, email, except string) (string, bool, error) {
	if email == "" {
		return "", false, nil
	}
	lang, err := s.repo.PersonLanguage(ctx, email, except)
	return lang, lang != "", err
}

// personLanguages gives each person of req without a language of their
// own the language they read elsewhere (see above).
func (s *Service) personLanguages(ctx context.Context, req *CreateGame) error {
	for i, p := range req.Players {
		if p.Language != "" || p.Bot != "" {
			continue
		}
		lang, ok, err := s.personLanguage(ctx, strings.TrimSpace(p.Email), "")
		if err != nil {
			return err
		}
		if ok && lang != "" && lang != req.Language {
			req.Players[i].Language = lang
		}
	}
	return nil
}

// followLanguage makes lang the language of every other seat of email in
// the games still going on (but game except), as the person chose it:
// each event names the person's seat there as its actor.
func (s *Service) followLanguage(ctx context.Context, email, except, lang, requestID string) error {
	if email == "" {
		return nil
	}
	gs, err := s.repo.MyGames(ctx, email)
	if err != nil {
		return err
	}
	for _, m := range gs {
		if m.GameID == except || m.Seat < 0 || projections.StatusEnded(m.Status) {
			continue
		}
		g, err := s.game(ctx, m.GameID)
		if err != nil {
			return err
		}
		if err := s.readLanguage(ctx, g, m.Seat, lang, requestID); err != nil {
			return err
		}
	}
	return nil
}

// readLanguage appends to game g that its seat reads lang, unless it
// does, or a bot plays it.
func (s *Service) readLanguage(ctx context.Context, g *projections.Game, seat int, lang, requestID string) error {
	st := g.SeatAt(seat)
	if st == nil || st.Bot != "" || g.SeatLanguage(seat) == lang {
		return nil
	}
	data, err := json.Marshal(pbemevent.Language{Seat: seat, Language: lang})
	if err != nil {
		return fmt.Errorf("game: marshal language: %w", err)
	}
	ev := events.NewEvent{Type: pbemevent.TypeLanguage, Data: data,
		Meta: events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: requestID}}
	return s.appendAside(ctx, g, ev, func(g *projections.Game) bool { return g.SeatAt(seat).Language == lang })
}
