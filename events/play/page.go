package play

import (
	"context"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// This file holds what the HTML play pages need beyond the JSON API: one
// read that gives a seat's view with the game's public summary, the current
// version for live updates, and a public replay for the audit page's chart.

// SeatPage is what the play page of one seat shows: the seat's view and the
// game's public summary (names, language, result), from one read.
type SeatPage struct {
	View    *View
	Summary *Summary
	// Takeback is the seat's take-back offer (takeback.go).
	Takeback TakebackOffer
}

// SeatPage returns the view of the seat that token opens, with the game's
// summary. Errors: events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) SeatPage(ctx context.Context, id, token string) (*SeatPage, error) {
	g, v, err := s.tokenView(ctx, id, token)
	if err != nil {
		return nil, err
	}
	sp := &SeatPage{View: v, Summary: summarize(g)}
	eng, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	if sp.Summary.Result != nil {
		sp.Summary.Result.told = func(lang string) *engine.Standings { return projections.Standings(g, st, lang) }
	}
	if sp.Takeback, err = s.takebackOffer(ctx, g, eng, st, v.Seat, v.LegalMoves); err != nil {
		return nil, err
	}
	return sp, nil
}

// SeatVersion returns the current version of a game after checking that
// token opens one of its seats (for the live-update stream). Errors:
// events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) SeatVersion(ctx context.Context, id, token string) (int64, error) {
	g, _, err := s.authSeat(ctx, id, token)
	if err != nil {
		return 0, err
	}
	return g.Version, nil
}

// PublicStep is the public view of a game after one of its engine events.
type PublicStep struct {
	Version int64
	Type    string
	// View is the engine's Spectator view after the event.
	View engine.SeatView
}

// PublicReplay re-deals an ended game from its audit record (the seed is
// revealed once the game has ended) and calls visit with the public view
// after the setup (Version 1) and after each engine event. Nothing in a
// step is private to a seat. Errors: events.CodeNotFound, events.CodeForbidden before the end,
// events.CodeInternal if the record does not replay.
func (s *Service) PublicReplay(ctx context.Context, id string, visit func(PublicStep)) error {
	a, err := s.Audit(ctx, id)
	if err != nil {
		return err
	}
	eng, st, err := pbemevent.Deal(s.games, a.Events)
	if err != nil {
		return err
	}
	visit(PublicStep{Version: a.Events[0].Version, Type: pbemevent.TypeCreated, View: st.View(engine.Spectator)})
	// A move taken back never happened, for the chart.
	return pbemevent.StandingEvents(eng, a.Events, pbemevent.Span{}, func(e events.Event, ev engine.Event) {
		st.Apply(ev)
		visit(PublicStep{Version: e.Version, Type: e.Type, View: st.View(engine.Spectator)})
	})
}
