package play

import (
	"encoding/json"
	"strconv"
	"strings"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// quietTypes are the service events that may come between a move and its
// take-back: they change neither the engine state nor whose turn it is,
// and nobody plays in them.
var quietTypes = map[string]bool{pbemevent.TypeChat: true, pbemevent.TypeLinkResent: true, pbemevent.TypeEmailChanged: true, pbemevent.TypeExtended: true, pbemevent.TypeAdminLinkRevoked: true}

// TakebackMove finds the move of a game that produced version, for a
// take-back: evs is the game's whole stream, in order. The move is within
// the run of engine events ending at version of one actor and request
// that no idempotency key splits (a keyed move's first event carries its
// key). Several decisions of a seat may share a request (a client that
// sends one X-Request-ID twice, the service's own callers): LastDecision
// finds where the last one begins. It returns the run's events, its first
// version and the seat that made it. Errors: events.CodeConflict with a message for the player
// when version is not a player's move, was already taken back, or when
// anything but a quiet service event (chat, a resent link, a corrected
// address, an extended deadline) or an earlier take-back came after it:
// another seat (a bot, a timeout) acted, or the game moved on.
func TakebackMove(evs []events.Event, version int64) (move []events.Event, from int64, seat int, err error) {
	back, err := pbemevent.TakenBack(evs)
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
	if at < 0 || pbemevent.IsServiceEvent(evs[at].Type) {
		return nil, 0, 0, events.Errorf(events.CodeConflict, "version %d is not a move of this game: give the version your move produced", version)
	}
	if back[version] {
		return nil, 0, 0, events.Errorf(events.CodeConflict, "the move at version %d was already taken back", version)
	}
	actor := evs[at].Meta.Actor
	seat, ok := pbemevent.SeatOfActor(actor)
	if !ok {
		return nil, 0, 0, events.Errorf(events.CodeConflict, "the move at version %d was not a player's move (%s): it cannot be taken back", version, actor)
	}
	for _, e := range evs[at+1:] {
		if quietTypes[e.Type] || e.Type == pbemevent.TypeTakeback || back[e.Version] {
			continue
		}
		return nil, 0, 0, events.Errorf(events.CodeConflict, "the game moved on after version %d (version %d: %s): the move can no longer be taken back",
			version, e.Version, actingWhat(e))
	}
	start := at
	for start > 0 {
		cur, prev := evs[start], evs[start-1]
		if cur.Meta.IdempotencyKey != "" || !back.Stands(prev) ||
			prev.Meta.Actor != actor || prev.Meta.RequestID != cur.Meta.RequestID {
			break
		}
		start--
	}
	return evs[start : at+1], evs[start].Version, seat, nil
}

// actingWhat names who acted in e, for a take-back's refusal.
func actingWhat(e events.Event) string {
	if s, ok := pbemevent.SeatOfActor(e.Meta.Actor); ok {
		return "seat " + strconv.Itoa(s) + " acted"
	}
	switch {
	case strings.HasPrefix(e.Meta.Actor, "bot:"):
		return "a bot played"
	case e.Type == pbemevent.TypeTimeout:
		return "the deadline passed"
	}
	return e.Type
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
