package projections

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// Takeback is the data of pbem.takeback: Seat took back its move, the
// engine events of versions From to Version (the version the move
// produced). The stream keeps them; every projection is computed as if
// they had not happened (see StateBefore). Their history rows stay, and
// the take-back gets its own.
type Takeback struct {
	Seat    int   `json:"seat"`
	Version int64 `json:"version"`
	From    int64 `json:"from"`
}

// quietTypes are the service events that may come between a move and its
// take-back: they change neither the engine state nor whose turn it is,
// and nobody plays in them.
var quietTypes = map[string]bool{TypeChat: true, TypeLinkResent: true, TypeEmailChanged: true, TypeExtended: true}

// TakenBack returns the versions taken back by the pbem.takeback events
// of a game's stream: readers that replay engine events (a bot's
// history, the audit's chart) leave them out.
func TakenBack(evs []events.Event) (map[int64]bool, error) { return takenBack(evs, 0) }

// takenBack returns the versions taken back by the pbem.takeback events of
// evs below version before (0: all of them).
func takenBack(evs []events.Event, before int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, e := range evs {
		if before > 0 && e.Version >= before {
			break
		}
		if e.Type != TypeTakeback {
			continue
		}
		var x Takeback
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
		}
		for v := x.From; v <= x.Version; v++ {
			out[v] = true
		}
	}
	return out, nil
}

// TakebackMove finds the move of a game that produced version, for a
// take-back: evs is the game's whole stream, in order. The move is within
// the run of engine events ending at version of one actor and request
// that no idempotency key splits (a keyed move's first event carries its
// key). Several decisions of a seat may share a request (a client that
// sends one X-Request-ID twice, the service's own callers): LastDecision
// finds where the last one begins. It returns the run's events, its first
// version and the seat that made it. Errors: EConflict with a message for the player
// when version is not a player's move, was already taken back, or when
// anything but a quiet service event (chat, a resent link, a corrected
// address, an extended deadline) or an earlier take-back came after it:
// another seat (a bot, a timeout) acted, or the game moved on.
func TakebackMove(evs []events.Event, version int64) (move []events.Event, from int64, seat int, err error) {
	back, err := takenBack(evs, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	at := -1
	for i, e := range evs {
		if e.Version == version {
			at = i
			break
		}
	}
	if at < 0 || IsServiceEvent(evs[at].Type) {
		return nil, 0, 0, Errorf(EConflict, "version %d is not a move of this game: give the version your move produced", version)
	}
	if back[version] {
		return nil, 0, 0, Errorf(EConflict, "the move at version %d was already taken back", version)
	}
	actor := evs[at].Meta.Actor
	seat, ok := seatOfActor(actor)
	if !ok {
		return nil, 0, 0, Errorf(EConflict, "the move at version %d was not a player's move (%s): it cannot be taken back", version, actor)
	}
	for _, e := range evs[at+1:] {
		if quietTypes[e.Type] || e.Type == TypeTakeback || back[e.Version] {
			continue
		}
		return nil, 0, 0, Errorf(EConflict, "the game moved on after version %d (version %d: %s): the move can no longer be taken back",
			version, e.Version, actingWhat(e))
	}
	start := at
	for start > 0 {
		cur, prev := evs[start], evs[start-1]
		if cur.Meta.IdempotencyKey != "" || IsServiceEvent(prev.Type) || back[prev.Version] ||
			prev.Meta.Actor != actor || prev.Meta.RequestID != cur.Meta.RequestID {
			break
		}
		start--
	}
	return evs[start : at+1], evs[start].Version, seat, nil
}

// actingWhat names who acted in e, for a take-back's refusal.
func actingWhat(e events.Event) string {
	if s, ok := seatOfActor(e.Meta.Actor); ok {
		return "seat " + strconv.Itoa(s) + " acted"
	}
	switch {
	case strings.HasPrefix(e.Meta.Actor, "bot:"):
		return "a bot played"
	case e.Type == TypeTimeout:
		return "the deadline passed"
	}
	return e.Type
}

// seatOfActor reads the seat of an actor "seat:N".
func seatOfActor(actor string) (int, bool) {
	n, ok := strings.CutPrefix(actor, "seat:")
	if !ok {
		return 0, false
	}
	s, err := strconv.Atoi(n)
	return s, err == nil && s >= 0
}

// Opening reads the pbem.created event that opens a game's stream evs,
// with its secret seed.
func Opening(evs []events.Event) (Created, engine.Seed, error) {
	var c Created
	if len(evs) == 0 || evs[0].Type != TypeCreated {
		return c, engine.Seed{}, fmt.Errorf("projections: the stream does not begin with pbem.created")
	}
	if err := json.Unmarshal(evs[0].Data, &c); err != nil {
		return c, engine.Seed{}, fmt.Errorf("projections: pbem.created of %s: %w", evs[0].Stream, err)
	}
	seed, err := DecodeSeed(c.Seed)
	if err != nil {
		return c, engine.Seed{}, fmt.Errorf("projections: game %s: %w", evs[0].Stream, err)
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
		return nil, nil, fmt.Errorf("projections: game %s: unknown engine %q", evs[0].Stream, c.Game)
	}
	st, err := eng.New(engine.Setup{Players: len(c.Players), Options: c.Options, Seed: seed, Names: c.Players, Language: c.Language})
	if err != nil {
		return nil, nil, fmt.Errorf("projections: game %s: deal: %w", evs[0].Stream, err)
	}
	return eng, st, nil
}

// StandingEvents calls visit with each engine event of evs below version
// before (0: all), decoded by eng, leaving out those taken back by the
// take-backs below before: the moves that stand. Every reader that
// replays a game (StateBefore, the audit's chart, the bots' history) goes
// through it.
func StandingEvents(eng engine.Game, evs []events.Event, before int64, visit func(e events.Event, ev engine.Event)) error {
	back, err := takenBack(evs, before)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if before > 0 && e.Version >= before {
			break
		}
		if IsServiceEvent(e.Type) || back[e.Version] {
			continue
		}
		ev, err := eng.DecodeEvent(e.Type, e.Data)
		if err != nil {
			return fmt.Errorf("projections: decode %s v%d (%s): %w", e.Stream, e.Version, e.Type, err)
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
	if err := StandingEvents(eng, evs, before, func(_ events.Event, ev engine.Event) { st.Apply(ev) }); err != nil {
		return nil, nil, err
	}
	return eng, st, nil
}

// LastDecision finds where the last decision of seat begins in run, the
// engine events of a run (TakebackMove) applied in order from st (the
// state before the run, which it leaves alone): the latest k such that
// one of seat's legal moves in the state before run[k] decides exactly
// run[k:] (Decide is deterministic). It returns k and the state before
// run[k]; ok is false when no listed move gives those events (rules that
// changed since, say).
func LastDecision(st engine.State, seat int, run []engine.Event) (k int, before engine.State, ok bool) {
	want := make([][]byte, len(run))
	for i, e := range run {
		b, err := json.Marshal(e)
		if err != nil {
			return 0, nil, false
		}
		want[i] = b
	}
	cur := st.Clone()
	for i := range run {
		if decides(cur, seat, run[i:], want[i:]) {
			k, before, ok = i, cur.Clone(), true
		}
		cur.Apply(run[i])
	}
	return k, before, ok
}

// decides reports whether one of seat's legal moves in st decides evs
// (whose JSON is want).
func decides(st engine.State, seat int, evs []engine.Event, want [][]byte) bool {
	for _, mv := range st.Legal(seat) {
		got, err := st.Decide(seat, mv)
		if err != nil || len(got) != len(evs) {
			continue
		}
		same := true
		for i, e := range got {
			b, err := json.Marshal(e)
			if err != nil || e.EventType() != evs[i].EventType() || string(b) != string(want[i]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// DecodeMoveEvents decodes the engine events of a stored move.
func DecodeMoveEvents(eng engine.Game, evs []events.Event) ([]engine.Event, error) {
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		ev, err := eng.DecodeEvent(e.Type, e.Data)
		if err != nil {
			return nil, fmt.Errorf("projections: decode %s v%d (%s): %w", e.Stream, e.Version, e.Type, err)
		}
		out[i] = ev
	}
	return out, nil
}
