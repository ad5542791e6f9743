package play

import (
	"context"
	"errors"
	"fmt"
	"pbem/events/pbemevent"
	"slices"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/engine/bot"
	"pbem/events"
	"pbem/events/tokens"
	"pbem/projections"
)

// Bots (issue #19). A seat may be played by a bot of a level (easy,
// normal, strong): chosen at creation (NewPlayer.Bot), or handed over by
// the organiser (SeatBot). A bot decides only from its seat's view and the
// game's engine events as its seat sees them (engine.Redacted), with a key
// derived from the game's seed (engine.Seed.BotKey: never the seed
// itself) and the stream version (engine/bot), and plays through the
// same path as a person (Service.move), as actor "bot:LEVEL", with the
// idempotency key "bot:v<version>": a retry, or a second server, plays the
// decision once. Given the seed and the version, a bot's move is the same:
// replaying a game gives the same bot moves. The types of bot.Choose
// (engine.SeatView, engine.SeatHistory, engine.BotKey) keep the state, the
// unredacted events and the seed out of a bot's reach. Its move is
// appended no earlier than the decision pause after PlayBot began, so that
// its time does not tell how long it thought (pause.go).

// botActor is the actor of a bot's events.
func botActor(level bot.Level) string { return "bot:" + level.String() }

// checkBots validates the bots of a CreateGame and completes them: a
// normalized level, no email, "Robot N" for a bot without a name. A game
// needs a person (one person and bots is playing alone).
func (req *CreateGame) checkBots() error {
	var errs []error
	n, people := 0, 0
	for i, p := range req.Players {
		if p.Bot == "" {
			people++
			continue
		}
		n++
		if strings.TrimSpace(p.Name) == "" {
			req.Players[i].Name = "Robot " + strconv.Itoa(n)
		}
		level, err := bot.ParseLevel(p.Bot)
		if err != nil {
			errs = append(errs, events.Errorf(events.CodeInvalid, "players[%d].bot: give easy, normal or strong (not %q)", i, p.Bot))
			continue
		}
		if strings.TrimSpace(p.Email) != "" {
			errs = append(errs, events.Errorf(events.CodeInvalid, "players[%d].email: a bot has no email", i))
			continue
		}
		req.Players[i].Bot, req.Players[i].Email = level.String(), ""
	}
	if people == 0 {
		errs = append(errs, events.Errorf(events.CodeInvalid, "players: give at least one person (a game of bots only is not played)"))
	}
	return JoinRefusals(errs...)
}

// bots lists the seats' bot levels for pbem.created, nil without a bot.
func (req *CreateGame) bots() []string {
	var out []string
	for i, p := range req.Players {
		if p.Bot == "" {
			continue
		}
		if out == nil {
			out = make([]string, len(req.Players))
		}
		out[i] = p.Bot
	}
	return out
}

// PlayBot plays one decision of the bot that plays seat of game id, if the
// game is active and awaits that seat, and reports whether a move was
// played (by this call or, with the same key, by an earlier one). A game
// that does not await the bot, or that moved on meanwhile, is left alone
// (false, nil). Errors: events.CodeNotFound (game or seat).
func (s *Service) PlayBot(ctx context.Context, id string, seat int) (bool, error) {
	notBefore := s.decisionStart()
	g, err := s.game(ctx, id)
	if err != nil {
		return false, err
	}
	st := g.SeatAt(seat)
	if st == nil {
		return false, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	if st.Bot == "" || g.Status != projections.StatusActive || !slices.Contains(g.ToMove, seat) {
		return false, nil
	}
	level, err := bot.ParseLevel(st.Bot)
	if err != nil {
		return false, fmt.Errorf("play: seat %d of %s: %w", seat, id, err)
	}
	eng, state, err := s.state(ctx, g)
	if err != nil {
		return false, err
	}
	h, err := s.botHistory(ctx, g, eng)
	if ErrorCode(err) == events.CodeConflict {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	mv, err := h.choose(eng, state, level, seat, g.Version)
	if err != nil {
		return false, err
	}
	req := MoveRequest{Version: g.Version, Move: mv, Key: "bot:v" + strconv.FormatInt(g.Version, 10),
		RequestID: "bot:" + id, actor: botActor(level), notBefore: notBefore}
	if _, err := s.move(ctx, g, seat, req); err != nil {
		if ErrorCode(err) == events.CodeConflict {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// botGame is what the service keeps of a game's past for its bots: the
// bots' key (derived from the seed, which no bot gets) and the engine
// events in order (unredacted: choose redacts them for the bot's seat).
type botGame struct {
	key    engine.BotKey
	events []engine.Event
}

// botHistory reads game g's stream. Errors: events.CodeConflict if the stream is not
// at g's version (the game moved on).
func (s *Service) botHistory(ctx context.Context, g *projections.Game, eng engine.Game) (*botGame, error) {
	evs, err := s.store.ReadStream(ctx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	if int64(len(evs)) != g.Version || len(evs) == 0 || evs[0].Type != pbemevent.TypeCreated {
		return nil, events.Errorf(events.CodeConflict, "game %s moved on", g.ID)
	}
	_, seed, err := pbemevent.Opening(evs)
	if err != nil {
		return nil, err
	}
	h := &botGame{key: seed.BotKey()}
	err = pbemevent.StandingEvents(eng, evs, pbemevent.Span{}, func(_ events.Event, ev engine.Event) { h.events = append(h.events, ev) })
	if err != nil {
		return nil, err
	}
	return h, nil
}

// choose is the bot's decision for seat in state st at version: from the
// seat's view and the history redacted for the seat, never from st itself.
func (h *botGame) choose(eng engine.Game, st engine.State, level bot.Level, seat int, version int64) (engine.Move, error) {
	mv, err := bot.Choose(eng, level, st.View(seat), engine.Redacted(eng, h.events, seat), h.key, int(version))
	if err != nil {
		return nil, fmt.Errorf("play: %s bot of seat %d: %w", level, seat, err)
	}
	return mv, nil
}

// NoPersonError is SeatBot's refusal to hand "back" a seat that a bot has
// played since the game began: no person ever held it. Its code is
// events.CodeConflict (the *events.Error it unwraps to, whose message
// counts seats from 0 as the API does); Name is the seat's player as the
// players see it, for a page to word the refusal in its reader's language.
type NoPersonError struct {
	Seat int
	Name string
	err  *events.Error
}

func (e *NoPersonError) Error() string { return e.err.Error() }
func (e *NoPersonError) Unwrap() error { return e.err }

// ErrPlayedSo is in (errors.Is) SeatBot's refusal of a hand-off the seat
// already has, a conflict: the same form sent twice (a double tap, a page
// sent again), which a page may take as done.
var ErrPlayedSo = errors.New("play: the seat is already played that way")

// playedSoError is SeatBot's refusal of a hand-off the seat already has:
// its conflict, which is also ErrPlayedSo.
type playedSoError struct{ err *events.Error }

func (e *playedSoError) Error() string   { return e.err.Error() }
func (e *playedSoError) Unwrap() []error { return []error{e.err, ErrPlayedSo} }

// handsBack reports whether seat st, which a bot plays, can be handed back
// to a person: one held it before the bot (its address is kept), which a
// seat a bot played from the start, without an address, never had.
func handsBack(st *projections.Seat) bool {
	return st.Bot != "" && st.Email != ""
}

// SeatBot hands seat of game id to a bot of level (easy, normal, strong),
// or back to its person (level ""), who gets a fresh play link by email.
// It records pbem.seat_bot. Errors: events.CodeNotFound (also for a bad seat),
// events.CodeUnauthorized, events.CodeInvalid for a bad level, events.CodeConflict if the game has ended,
// the seat is already so played (ErrPlayedSo), or a seat that was a bot from the start
// is handed "back" (it has no person: a *NoPersonError).
func (s *Service) SeatBot(ctx context.Context, id, adminToken string, seat int, level string) (*Summary, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	st := g.SeatAt(seat)
	if st == nil {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	ev := pbemevent.SeatBot{Seat: seat}
	if strings.TrimSpace(level) != "" {
		l, err := bot.ParseLevel(level)
		if err != nil {
			return nil, events.Errorf(events.CodeInvalid, "bot: give easy, normal or strong, or \"\" to hand the seat back (not %q)", level)
		}
		ev.Bot = l.String()
	}
	if g.Ended() {
		return nil, events.Errorf(events.CodeConflict, "the game has already ended")
	}
	if ev.Bot == st.Bot {
		return nil, &playedSoError{events.Errorf(events.CodeConflict, "seat %d is already played that way", seat)}
	}
	if ev.Bot == "" {
		if !handsBack(st) {
			return nil, &NoPersonError{Seat: seat, Name: st.Name,
				err: events.Errorf(events.CodeConflict, "seat %d was a bot's from the start: it has no person to hand back to", seat)}
		}
		ev.TokenGen = st.TokenGen + 1
		g = g.Clone() // the loaded row is shared (cached)
		for i := range g.Seats {
			if g.Seats[i].Seat == seat {
				g.Seats[i].TokenHash = tokens.Hash(tokens.Seat(s.secret, id, seat, ev.TokenGen))
			}
		}
	}
	if g.Status == projections.StatusMuster {
		return s.musterHandOff(ctx, g, ev)
	}
	return s.serviceEvent(ctx, g, "admin", pbemevent.TypeSeatBot, ev)
}
