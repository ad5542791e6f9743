package play

import (
	"context"
	"encoding/json"
	"pbem/events/pbemevent"
	"time"

	"pbem/engine"
	"pbem/projections"
)

// This file holds the play page's "Since your last turn" (issue #14): the
// events a seat has not seen yet, from its own redacted history, told in
// the page's language, with the seat's view before them so that the page
// can mark what changed.

// CatchUp is what happened in a game since a seat last moved or last
// opened its page, whichever is later. Its lines are the seat's history
// rows as stored (the sentences the your-turn email tells, see notify's
// Story), the other players' table talk included (issue #31); the seat's
// own lines and the game's creation are left out, as the email leaves
// them out.
type CatchUp struct {
	// From is the version the seat knew: Lines are the events after it.
	From int64
	// Lines are the seat's history after From up to the page's version,
	// in order, each as the seat may see it.
	Lines []CatchUpLine
	// Before is the seat's view at version From (at the deal if From is
	// 0; the engine's View), nil when Lines is empty.
	Before any
}

// CatchUpLine is one event of a CatchUp.
type CatchUpLine struct {
	Version int64
	// Type is the event's type; Actor who acted ("seat:1", "bot:normal",
	// "system", "admin").
	Type  string
	Actor string
	// Seat is the seat whose turn the event belongs to: the acting seat,
	// or for a bot or the deadline the seat the event names; -1 if none.
	Seat int
	// Text tells the event as the seat's history does (in the game's
	// language, with the players' names).
	Text       string
	RecordedAt time.Time
	// Who is the person who held the acting seat when it acted ("" for
	// an actor that is not a seat).
	Who string
}

// SeatCatchUp returns what the seat that token opens has not seen at
// version (the version of the page being served), and records that the
// seat has now seen version. keep, if >= 0, is where the lines of a page
// already open start (a live update): the lines then start there unless
// the seat moved since, so that the update only adds lines, and no visit
// is recorded (a tab left open in the background must not use up the
// lines its player has not read; the next page opened shows them).
// Errors: events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) SeatCatchUp(ctx context.Context, id, token string, version, keep int64) (*CatchUp, error) {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return nil, err
	}
	eng, err := s.engineOf(g)
	if err != nil {
		return nil, err
	}
	version = min(version, g.Version)
	since := keep
	if keep < 0 {
		if since, err = s.visits.Visit(ctx, g.ID, seat, version); err != nil {
			return nil, err
		}
	}
	// The seat's last move counts only if it came after since.
	rows, err := s.seatHistory(ctx, g, seat, since)
	if err != nil {
		return nil, err
	}
	from := max(since, lastMove(rows, seat))
	cu := &CatchUp{From: from}
	for _, r := range rows {
		if r.Version <= from || r.Version > version || r.Type == pbemevent.TypeCreated || r.Type == pbemevent.TypeLanguage ||
			(r.Type == pbemevent.TypeChat && r.Actor == pbemevent.SeatActor(seat)) {
			continue
		}
		cu.Lines = append(cu.Lines, CatchUpLine{Version: r.Version, Type: r.Type, Actor: r.Actor,
			Seat: turnSeat(r, len(g.Players)), Text: r.Summary, RecordedAt: r.RecordedAt, Who: r.ActorName})
	}
	if len(cu.Lines) > 0 {
		// Before the first event there is no view: the deal is the base.
		if cu.Before, err = s.seatViewAt(ctx, g, eng, seat, max(from, 1)); err != nil {
			return nil, err
		}
	}
	return cu, nil
}

// lastMove is the version of seat's last move or muster answer in rows
// (pbemevent.EndsStory), 0 if it has none there.
func lastMove(rows []projections.HistoryRow, seat int) int64 {
	actor := pbemevent.SeatActor(seat)
	var v int64
	for _, r := range rows {
		if r.Actor == actor && pbemevent.EndsStory(r.Type) {
			v = r.Version
		}
	}
	return v
}

// turnSeat is the seat whose turn row belongs to: its acting seat, else
// the seat its data names (a bot's or a timeout's move), else -1.
func turnSeat(r projections.HistoryRow, players int) int {
	if i, ok := pbemevent.SeatOfActor(r.Actor); ok {
		return i
	}
	var d struct {
		Seat *int `json:"seat"`
	}
	if json.Unmarshal(r.Data, &d) == nil && d.Seat != nil && *d.Seat >= 0 && *d.Seat < players {
		return *d.Seat
	}
	return -1
}

// describeRow tells a history row in lang, as the projector told it in
// the game's language; a row the engine cannot read keeps its stored
// line (the audit's, see DescribeAudit).
func describeRow(eng engine.Game, r projections.HistoryRow, names []string, lang string) string {
	if pbemevent.IsServiceEvent(r.Type) {
		return projections.DescribeService(r.Type, r.Data, names, lang)
	}
	ev, err := eng.DecodeEvent(r.Type, r.Data)
	if err != nil {
		return r.Summary
	}
	return eng.Describe(ev, names, lang)
}

// seatViewAt deals game g again from its stream and applies its events up
// to version, and returns seat's view then, in the seat's language
// (cached: the past never changes).
func (s *Service) seatViewAt(ctx context.Context, g *projections.Game, eng engine.Game, seat int, version int64) (any, error) {
	k := viewKey{game: g.ID, seat: seat, version: version, lang: g.SeatLanguage(seat)}
	if v, ok := s.pastViews.get(k); ok {
		return v, nil
	}
	evs, err := s.store.ReadStream(ctx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	// The state as it was at version: moves taken back by then left out.
	_, st, err := pbemevent.StateBefore(s.games, evs, version+1)
	if err != nil {
		return nil, err
	}
	v := projections.SpeakTo(g, st, seat).View(seat)
	s.pastViews.put(k, v)
	return v, nil
}
