package play

import (
	"context"
	"encoding/json"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// TakebackRequest is a seat taking back its last move.
type TakebackRequest struct {
	// Version is the version the move produced (the view's version right
	// after it).
	Version int64
	// RequestID ties the event to a request's log lines.
	RequestID string
}

// tailEvents is how many of a game's last events the play page reads to
// offer a take-back: a move and the quiet events after it fit easily.
const tailEvents = 64

// Takeback takes back the move of the seat that token opens that produced
// req.Version, and returns that seat's new view. It appends a
// pbem.takeback event naming the move's versions: the stream keeps the
// move, and the projections are computed as if it had not happened (the
// engine state is the one before it); the move's emails still waiting
// for the mail grace are cancelled, and the take-back sends none.
//
// A move may be taken back while nothing but chat, a resent link, a
// corrected address or an extended deadline came after it (no other seat,
// bot or timeout acted) and the engine says it revealed nothing
// (engine.Game.Reversible). A take-back racing another seat's move: the
// append's version check lets exactly one of them win.
//
// Errors: events.CodeUnauthorized (no or bad token), events.CodeNotFound, events.CodeInvalid (a version
// below 1), events.CodeForbidden (the move is another seat's), events.CodeConflict with a
// message for the player (the game is not active, the move is not the
// seat's last, something came after it, it revealed something, or the
// race was lost).
func (s *Service) Takeback(ctx context.Context, id, token string, req TakebackRequest) (*View, error) {
	g, seat, err := s.authSeat(ctx, id, token)
	if err != nil {
		return nil, err
	}
	if req.Version < 1 {
		return nil, events.Errorf(events.CodeInvalid, "version: give the version your move produced")
	}
	switch g.Status {
	case projections.StatusPaused:
		return nil, events.Errorf(events.CodeConflict, "the game is paused: a move cannot be taken back now")
	case projections.StatusAborted:
		return nil, events.Errorf(events.CodeConflict, "the game was aborted")
	case projections.StatusFinished:
		return nil, events.Errorf(events.CodeConflict, "the game is over: its last move cannot be taken back")
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 || evs[len(evs)-1].Version != g.Version {
		s.cache.drop(id)
		return nil, events.Errorf(events.CodeConflict, "the game has moved on: reload it and try again")
	}
	eng, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	move, from, mover, err := TakebackMove(evs, req.Version)
	if err != nil {
		return nil, err
	}
	if mover != seat {
		return nil, events.Errorf(events.CodeForbidden, "only the player who made the move at version %d may take it back", req.Version)
	}
	decoded, err := pbemevent.DecodeMoveEvents(eng, move)
	if err != nil {
		return nil, err
	}
	_, runStart, err := pbemevent.StateBefore(s.games, evs, from)
	if err != nil {
		return nil, err
	}
	k, before, ok := LastDecision(runStart, seat, decoded)
	if !ok {
		return nil, events.Errorf(events.CodeConflict,
			"the move at version %d cannot be told apart from the moves before it: it cannot be taken back", req.Version)
	}
	decoded, from = decoded[k:], from+int64(k)
	if !eng.Reversible(decoded) {
		return nil, events.Errorf(events.CodeConflict,
			"the move at version %d revealed something (a card drawn or turned face-up, a secret choice, a shuffle, a new round): it cannot be taken back", req.Version)
	}
	data, err := json.Marshal(pbemevent.Takeback{Seat: seat, Version: req.Version, From: from})
	if err != nil {
		return nil, err
	}
	meta := events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: req.RequestID}
	p := &pending{g: g, st: st, evs: []events.NewEvent{{Type: pbemevent.TypeTakeback, Data: data, Meta: meta}},
		decoded: []engine.Event{nil}, rewind: before}
	ng, nst, _, err := s.appendPending(ctx, p)
	if err != nil {
		return nil, err
	}
	return view(ng, nst, seat), nil
}

// TakebackOffer is what the play page offers a seat: the version of its
// last move if it may still take it back (0 if not), and, for each of its
// legal moves in order, whether that move could not be taken back once
// played (the page asks for a confirmation first): a move that reveals
// something, or one a forced step would follow (withForced); and whether
// it ends the seat's turn (EndsTurn: the seat is no longer awaited once
// the move and its own forced steps are played; told only of a move that
// reveals nothing), which the confirmation says.
type TakebackOffer struct {
	Version  int64
	Final    []bool
	EndsTurn []bool
}

// takebackOffer computes the offer of seat in game g (state st): from the
// stream's last events, and from the engine's answer on the events each
// legal move would cause (Decide leaves the state as it is).
func (s *Service) takebackOffer(ctx context.Context, g *projections.Game, eng engine.Game, st engine.State, seat int, legal []engine.Move) (TakebackOffer, error) {
	var o TakebackOffer
	for _, mv := range legal {
		evs, err := st.Decide(seat, mv)
		if err != nil {
			o.Final, o.EndsTurn = append(o.Final, true), append(o.EndsTurn, false)
			continue
		}
		after := applied(st, evs)
		_, forced := nextForced(after)
		o.Final = append(o.Final, !eng.Reversible(evs) || forced != nil)
		// Said only of a move that reveals nothing: after a draw, a card
		// turned up or a new round, whether the turn goes on may depend on
		// what comes, which the page must not tell before the tap.
		o.EndsTurn = append(o.EndsTurn, eng.Reversible(evs) && endsTurn(after, seat))
	}
	if g.Status != projections.StatusActive || g.Version < 2 {
		return o, nil
	}
	evs, err := s.store.ReadStream(ctx, g.ID, max(1, g.Version-tailEvents+1))
	if err != nil {
		return o, err
	}
	back, err := pbemevent.TakenBack(evs)
	if err != nil {
		return o, err
	}
	// The seat's last move is the last engine event (not taken back) of
	// the tail; TakebackMove says whether it may still be taken back.
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if !back.Stands(e) {
			continue
		}
		move, _, mover, err := TakebackMove(evs, e.Version)
		if err != nil || mover != seat {
			return o, nil
		}
		decoded, err := pbemevent.DecodeMoveEvents(eng, move)
		if err != nil {
			return o, err
		}
		if eng.Reversible(decoded) {
			o.Version = e.Version
		}
		return o, nil
	}
	return o, nil
}

// remembered returns the remembered answer of a keyed move of seat, as
// Repository.Request does, unless that move was taken back: a retry of it
// would answer a move that no longer stands (and the store would not
// append it again under the same key), so it is a conflict asking for a
// new key. Errors: events.CodeNotFound (no such key), events.CodeConflict.
func (s *Service) remembered(ctx context.Context, id string, seat int, key string) (*projections.Request, error) {
	r, err := s.repo.Request(ctx, id, seat, key)
	if err != nil {
		return nil, err
	}
	evs, err := s.store.ReadStream(ctx, id, r.Version)
	if err != nil {
		return nil, err
	}
	back, err := pbemevent.TakenBack(evs)
	if err != nil {
		return nil, err
	}
	if back[r.Version] {
		return nil, events.Errorf(events.CodeConflict, "the move of id %q was taken back: play again with a new id", key)
	}
	return r, nil
}
