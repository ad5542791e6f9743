package play

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// MoveRequest is a seat's move.
type MoveRequest struct {
	// Version is the game version the player saw; a different current
	// version is a conflict.
	Version int64
	// Move is the move: one of the view's legal moves (an engine's own
	// value: a bot's choice, a reply's pick), or a PostedMove.
	Move engine.Move
	// Key is an optional idempotency key: a retry with the same key returns
	// the first answer and appends nothing.
	Key string
	// RequestID ties the events to a request's log lines.
	RequestID string
	// actor, set by PlayBot only, is the bot that plays ("bot:normal").
	actor string
	// notBefore, set by PlayBot only, is when the move may be appended
	// (pause.go).
	notBefore decisionClock
}

// PostedMove is a move as JSON: as a client posts it (the HTTP edge hands
// the posted bytes over as they are), or as a remembered answer lists it
// (storedView). The service decodes it with the game's engine
// (engine.Game.DecodeMove) only once it has checked the seat, the game's
// status and the version, so a request's errors come in that order
// whatever its move holds.
type PostedMove json.RawMessage

// Label implements engine.Move: the label the JSON carries, or "" for JSON
// with none (the engines label every move they list).
func (m PostedMove) Label() string {
	var l struct {
		Label string `json:"label"`
	}
	if err := json.Unmarshal(m, &l); err != nil {
		return ""
	}
	return l.Label
}

// About implements engine.Move: the kind its JSON names ("type"), and no
// card (a posted move is not listed on a page; the engine's decoded move
// says what it is about).
func (m PostedMove) About() engine.About {
	var t struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(m, &t); err != nil {
		return engine.About{}
	}
	return engine.About{Kind: t.Type}
}

// MarshalJSON gives the move's JSON as it is, so that a listed move's
// projections.ChoiceTag is its engine move's.
func (m PostedMove) MarshalJSON() ([]byte, error) {
	if len(m) == 0 {
		return []byte("null"), nil
	}
	return m, nil
}

// playable is mv as a move of eng: a PostedMove decoded, any other move as
// it is (the engine's Decide refuses a move that is not its own).
func playable(eng engine.Game, mv engine.Move) (engine.Move, error) {
	posted, ok := mv.(PostedMove)
	if mv == nil || ok && len(posted) == 0 {
		return nil, engine.Errorf(engine.CodeBadMove, "give a move")
	}
	if !ok {
		return mv, nil
	}
	m, err := eng.DecodeMove(posted)
	if err != nil {
		if re := AsRuleError(err); re != nil {
			return nil, re
		}
		return nil, engine.Errorf(engine.CodeBadMove, "%v", err)
	}
	return m, nil
}

// Move plays a move of the seat that token opens and returns that seat's new
// view. Errors: events.CodeNotFound, events.CodeUnauthorized, events.CodeInvalid (bad key),
// events.CodeConflict (stale version, lost race, game paused, aborted or over), and
// the engine's rule errors: engine.CodeBadMove (not a move of this game),
// engine.CodeNotYourTurn, engine.CodeIllegalMove, engine.CodeGameOver.
//
// The game is taken as this process last saw it (see knownGame): a move
// reads nothing from the database before its append, which checks the
// version there. A token the cached row does not know is checked again
// against the database's row (another process may have resent the link).
func (s *Service) Move(ctx context.Context, id, token string, req MoveRequest) (*View, error) {
	if token == "" {
		return nil, events.Errorf(events.CodeUnauthorized, "give the token of your play link as Authorization: Bearer TOKEN")
	}
	g, cached, err := s.knownGame(ctx, id, req.Version)
	if err != nil {
		return nil, err
	}
	seat := seatFor(g, token)
	if seat < 0 && cached {
		if g, err = s.load(ctx, id); err != nil {
			return nil, err
		}
		seat = seatFor(g, token)
	}
	if seat < 0 {
		return nil, errBadSeatToken(id)
	}
	return s.move(ctx, g, seat, req)
}

// MoveAs plays a move of seat, for callers that authenticated the player
// otherwise (an email reply). Errors: as Move, and events.CodeNotFound for a bad seat.
func (s *Service) MoveAs(ctx context.Context, id string, seat int, req MoveRequest) (*View, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	if seat < 0 || seat >= len(g.Players) {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	return s.move(ctx, g, seat, req)
}

func (s *Service) move(ctx context.Context, g *projections.Game, seat int, req MoveRequest) (*View, error) {
	if len(req.Key) > 200 || !utf8.ValidString(req.Key) {
		return nil, events.Errorf(events.CodeInvalid, "id: give an idempotency key of at most 200 characters")
	}
	if req.Key != "" {
		if r, err := s.remembered(ctx, g.ID, seat, req.Key); err == nil {
			return storedView(r.Response)
		} else if ErrorCode(err) != events.CodeNotFound {
			return nil, err
		}
	}
	switch g.Status {
	case projections.StatusMuster:
		return nil, events.Errorf(events.CodeConflict, "the game has not begun: it waits for every player to accept")
	case projections.StatusPaused:
		return nil, events.Errorf(events.CodeConflict, "the game is paused")
	case projections.StatusAborted:
		return nil, events.Errorf(events.CodeConflict, "the game was aborted")
	case projections.StatusFinished:
		return nil, engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if g.IsBot(seat) && req.actor == "" {
		return nil, events.Errorf(events.CodeConflict, "seat %d is played by a bot: the organiser can hand it back to you", seat)
	}
	if req.Version != g.Version {
		return nil, events.Errorf(events.CodeConflict, "stale version %d: the game is at version %d, reload it", req.Version, g.Version)
	}
	eng, st, err := s.state(ctx, g)
	if err != nil {
		return nil, err
	}
	mv, err := playable(eng, req.Move)
	if err != nil {
		return nil, err
	}
	decided, err := st.Decide(seat, mv)
	if err != nil {
		if re := AsRuleError(err); re != nil {
			return nil, re
		}
		return nil, fmt.Errorf("play: decide: %w", err)
	}
	if len(decided) == 0 {
		return nil, fmt.Errorf("play: engine %s decided no events", g.Game)
	}
	meta := events.Metadata{Actor: pbemevent.SeatActor(seat), RequestID: req.RequestID}
	if req.actor != "" {
		meta.Actor = req.actor
	}
	if req.Key != "" {
		meta.IdempotencyKey = pbemevent.SeatActor(seat) + ":" + req.Key
	}
	evs, err := newEvents(decided, meta)
	if err != nil {
		return nil, err
	}
	// A keyed move's answer is remembered with the move, so it is encoded
	// inside the append's transaction (and kept: View.JSON); any other
	// answer is computed after the commit, outside the group commit's
	// serial part, and encoded by the caller if at all.
	var answer *View
	var extra func(*projections.Change, engine.State) error
	if req.Key != "" {
		extra = func(c *projections.Change, nst engine.State) error {
			v := view(c.Game, nst, seat)
			b, err := v.JSON()
			if err != nil {
				return err
			}
			v.encoded, answer = b, v
			c.Request = &projections.Request{GameID: g.ID, Seat: seat, Key: req.Key, Version: c.Game.Version, Response: b}
			return nil
		}
	}
	ng, nst, ran, err := s.appendPending(ctx, &pending{g: g, st: st, evs: evs, decoded: decided, extra: extra, notBefore: req.notBefore})
	if err != nil {
		if ErrorCode(err) == events.CodeConflict && req.Key != "" {
			// A concurrent retry of the same keyed move may have won.
			if r, rerr := s.remembered(ctx, g.ID, seat, req.Key); rerr == nil {
				return storedView(r.Response)
			}
		}
		return nil, err
	}
	if ran && s.moved != nil {
		s.moved(g.Game)
	}
	if !ran {
		// The store saw this key already: answer as the first time.
		if r, err := s.remembered(ctx, g.ID, seat, req.Key); err == nil {
			return storedView(r.Response)
		}
		return nil, events.Errorf(events.CodeConflict, "id %q was already used for another request", req.Key)
	}
	if answer == nil {
		return view(ng, nst, seat), nil
	}
	return answer, nil
}

// newEvents encodes engine events for the store.
func newEvents(evs []engine.Event, meta events.Metadata) ([]events.NewEvent, error) {
	out := make([]events.NewEvent, len(evs))
	for i, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("play: marshal event %s: %w", e.EventType(), err)
		}
		out[i] = events.NewEvent{Type: e.EventType(), Data: data, Meta: meta}
		if i > 0 {
			out[i].Meta.IdempotencyKey = ""
		}
	}
	return out, nil
}
