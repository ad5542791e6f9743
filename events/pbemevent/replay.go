package pbemevent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// TakenBackSet holds the versions of a game's stream that its
// pbem.takeback events took back. With Stands it is the one skip rule of
// every reader that replays a game or looks for its last move.
type TakenBackSet map[int64]bool

// Stands reports whether e is an engine event that stands: not one of the
// service's own events (pbem.*), and not taken back. Only such events
// change the engine state.
func (t TakenBackSet) Stands(e events.Event) bool { return !IsServiceEvent(e.Type) && !t[e.Version] }

// TakenBack returns the versions taken back by the pbem.takeback events
// of a game's stream: readers that replay engine events (a bot's
// history, the audit's chart) leave them out.
func TakenBack(evs []events.Event) (TakenBackSet, error) { return takenBack(evs, Span{}) }

// takenBack returns the versions taken back by the pbem.takeback events of
// evs below span.Before, wherever they fall against span.After.
func takenBack(evs []events.Event, span Span) (TakenBackSet, error) {
	out := TakenBackSet{}
	for _, e := range evs {
		if span.past(e.Version) {
			break
		}
		if e.Type != TypeTakeback {
			continue
		}
		var x Takeback
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return nil, &DecodeError{Stream: e.Stream, Version: e.Version, Type: e.Type, Err: err}
		}
		for v := x.From; v <= x.Version; v++ {
			out[v] = true
		}
	}
	return out, nil
}

// Span is the versions of a stream a replay visits: those after After (0:
// from the start; the version of a state snapshot the replay starts from)
// and below Before (0: to the end of what was read).
type Span struct{ After, Before int64 }

// Holds reports whether version v is within s.
func (s Span) Holds(v int64) bool { return v > s.After && !s.past(v) }

// past reports whether version v is at or beyond s.Before.
func (s Span) past(v int64) bool { return s.Before > 0 && v >= s.Before }

// Opening reads the pbem.created event that opens a game's stream evs,
// with its secret seed.
func Opening(evs []events.Event) (Created, engine.Seed, error) {
	var c Created
	if len(evs) == 0 || evs[0].Type != TypeCreated {
		return c, engine.Seed{}, fmt.Errorf("pbemevent: the stream does not begin with pbem.created")
	}
	if err := json.Unmarshal(evs[0].Data, &c); err != nil {
		return c, engine.Seed{}, fmt.Errorf("pbemevent: pbem.created of %s: %w", evs[0].Stream, err)
	}
	seed, err := DecodeSeed(c.Seed)
	if err != nil {
		return c, engine.Seed{}, fmt.Errorf("pbemevent: game %s: %w", evs[0].Stream, err)
	}
	return c, seed, nil
}

// Deal deals the game of evs again from its opening pbem.created (see
// Opening), with its engine from games.
func Deal(games engine.Registry, evs []events.Event) (engine.Game, engine.State, error) {
	c, seed, err := Opening(evs)
	if err != nil {
		return nil, nil, err
	}
	eng, ok := games[c.Game]
	if !ok {
		return nil, nil, fmt.Errorf("pbemevent: game %s: unknown engine %q", evs[0].Stream, c.Game)
	}
	st, err := eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language, Rules: c.RulesVersion})
	if err != nil {
		return nil, nil, fmt.Errorf("pbemevent: game %s: deal: %w", evs[0].Stream, err)
	}
	return eng, st, nil
}

// DecodeError is a stored event that does not decode: an engine event
// its engine refuses, or a take-back (a record edited by hand, or by a
// cheat: the audit names its version).
type DecodeError struct {
	Stream  string
	Version int64
	Type    string
	Err     error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("pbemevent: decode %s v%d (%s): %v", e.Stream, e.Version, e.Type, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// StandingEvents calls visit with each engine event of evs (in version
// order) within span, decoded by eng, leaving out the service's events
// and those taken back by the take-backs below span.Before
// (TakenBackSet.Stands): the moves that stand. Every reader that replays
// a game (StateBefore, the audit's chart, the bots' history, the
// service's catch-up from a state snapshot, the round-end email's
// summary) goes through it. An event that does not decode is a
// *DecodeError.
func StandingEvents(eng engine.Game, evs []events.Event, span Span, visit func(e events.Event, ev engine.Event)) error {
	back, err := takenBack(evs, span)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if span.past(e.Version) {
			break
		}
		if !span.Holds(e.Version) || !back.Stands(e) {
			continue
		}
		ev, err := Decode(eng, e)
		if err != nil {
			return err
		}
		visit(e, ev)
	}
	return nil
}

// StateBefore deals the game of evs (its whole stream, or a prefix
// reaching before) again and applies its engine events below version
// before, leaving out those taken back by the take-backs below before:
// the engine state just before that version. It returns the engine too.
func StateBefore(games engine.Registry, evs []events.Event, before int64) (engine.Game, engine.State, error) {
	eng, st, err := Deal(games, evs)
	if err != nil {
		return nil, nil, err
	}
	if err := StandingEvents(eng, evs, Span{Before: before}, func(_ events.Event, ev engine.Event) { st.Apply(ev) }); err != nil {
		return nil, nil, err
	}
	return eng, st, nil
}

// DecodeMoveEvents decodes the engine events of a stored move.
func DecodeMoveEvents(eng engine.Game, evs []events.Event) ([]engine.Event, error) {
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		ev, err := Decode(eng, e)
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}

// Decode decodes the stored engine event e with its engine eng. Errors: a
// *DecodeError naming e.
func Decode(eng engine.Game, e events.Event) (engine.Event, error) {
	ev, err := eng.DecodeEvent(e.Type, e.Data)
	if err != nil {
		return nil, &DecodeError{Stream: e.Stream, Version: e.Version, Type: e.Type, Err: err}
	}
	return ev, nil
}

// DecodeSeed reads the hex seed of pbem.created.
func DecodeSeed(s string) (engine.Seed, error) {
	var seed engine.Seed
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(seed) {
		return seed, fmt.Errorf("bad seed in pbem.created")
	}
	copy(seed[:], b)
	return seed, nil
}

// SeedHash is the public hash of a game's seed: hex SHA-256 of its 32 bytes.
func SeedHash(seed engine.Seed) string {
	h := sha256.Sum256(seed[:])
	return hex.EncodeToString(h[:])
}

// GameStep reports whether an event of type typ and data, appended by an
// act of seat (-1: no seat known), is a step the game took itself after
// the act rather than the act: an event of the game (not of the service:
// table talk, take-backs and settings are always their actor's) whose data
// names no seat, or another seat than the one that acted (a round's end, a
// battle, the next seat's turn beginning), and the muster's end, which
// follows the last answer but is no one's act. Steps also credits a
// decision's first event to its seat, whomever it names (a badge given).
func GameStep(typ string, seat int, data json.RawMessage) bool {
	if typ == TypeMustered {
		return true
	}
	if IsServiceEvent(typ) {
		return false
	}
	var d struct {
		Seat *int `json:"seat"`
	}
	if json.Unmarshal(data, &d) != nil || d.Seat == nil {
		return true
	}
	return seat >= 0 && seat != *d.Seat
}

// Steps tells, event after event of a stream read in order, which are
// the game's own steps. The first event of a seat's append is its act,
// whatever seat its data names (an engine's Decide returns the decision's
// own event first: "Alice gives the badge of honour to Giulia" is
// Alice's); the events after it are told by GameStep, and so is the
// first event of a run when nothing tells it began an append. Only an append's
// first event carries its idempotency key, which names the seat of a
// bot's move: Steps carries that seat on to the events of the same actor
// that follow. Its zero value is ready; a run that begins within a bot's
// append knows no seat for the events before the next key.
type Steps struct {
	by    int
	actor string
	seen  bool
	last  events.Event
}

// Next reports whether e, the event after the last one given, is a step
// of the game's own.
func (st *Steps) Next(e events.Event) bool {
	// An append's first event: it carries the append's key (a page's, a
	// reply's, a bot's move), or follows another append. A run that
	// begins within an append, or at an unkeyed one, cannot tell.
	first := e.Meta.IdempotencyKey != "" || st.seen && !SameAppend(st.last, e)
	if s := ActingSeat(e.Meta.Actor, e.Meta.IdempotencyKey); s >= 0 || !st.seen || e.Meta.Actor != st.actor {
		st.by, st.actor, st.seen = s, e.Meta.Actor, true
	}
	st.last = e
	if first && st.by >= 0 && !IsServiceEvent(e.Type) {
		return false
	}
	return GameStep(e.Type, st.by, e.Data)
}

// SameAppend reports whether b, the event just after a in its stream,
// was appended with it: no key of its own (only an append's first event
// carries one), the same time, actor and request.
func SameAppend(a, b events.Event) bool {
	return b.Meta.IdempotencyKey == "" && a.RecordedAt.Equal(b.RecordedAt) &&
		a.Meta.Actor == b.Meta.Actor && a.Meta.RequestID == b.Meta.RequestID
}

// ActingSeat is the seat that acted in an event of actor and idempotency
// key: a seat's own act ("seat:N"), a step played for a seat ("forced:N"),
// a bot's move (its key begins "seat:N:"), else -1 (the deadline's, the
// organiser's, the service's own events).
func ActingSeat(actor, key string) int {
	if s, ok := SeatOfActor(actor); ok {
		return s
	}
	if s, ok := SeatOfForced(actor); ok {
		return s
	}
	if n, _, ok := strings.Cut(strings.TrimPrefix(key, seatPrefix), ":"); ok && strings.HasPrefix(key, seatPrefix) {
		if s, err := strconv.Atoi(n); err == nil && s >= 0 {
			return s
		}
	}
	return -1
}

// SeatActor is the actor of seat's own acts, "seat:N": its moves, table
// talk, answers and settings (SeatOfActor reads it back).
func SeatActor(seat int) string { return seatPrefix + strconv.Itoa(seat) }

// seatPrefix begins a seat's actor, "seat:N".
const seatPrefix = "seat:"

// SeatOfActor reads the seat of an actor "seat:N" (a player's; the
// service's own actors are "system", "admin", "bot:<level>" and
// "forced:N", ForcedActor).
func SeatOfActor(actor string) (int, bool) {
	n, ok := strings.CutPrefix(actor, seatPrefix)
	if !ok {
		return 0, false
	}
	s, err := strconv.Atoi(n)
	return s, err == nil && s >= 0
}

// ForcedActor is the actor of a forced step played for seat: its only
// legal move, played by the service at once (engine.State.Forced).
func ForcedActor(seat int) string { return forcedPrefix + strconv.Itoa(seat) }

// forcedPrefix begins a forced step's actor, "forced:N".
const forcedPrefix = "forced:"

// SeatOfForced reads the seat a forced step was played for from its
// actor "forced:N" (ForcedActor).
func SeatOfForced(actor string) (int, bool) {
	n, ok := strings.CutPrefix(actor, forcedPrefix)
	if !ok {
		return 0, false
	}
	s, err := strconv.Atoi(n)
	return s, err == nil && s >= 0
}

// botPrefix begins a bot's actor, "bot:<level>".
const botPrefix = "bot:"

// LevelOfBot reads the level of a bot's actor "bot:<level>".
func LevelOfBot(actor string) (string, bool) {
	level, ok := strings.CutPrefix(actor, botPrefix)
	return level, ok && level != ""
}
