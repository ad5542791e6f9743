package projections

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// A game's history is not stored (migration 0080 dropped the history
// table): every line is a pure function of its event, the game's engine
// and language, and the players' names when the event was appended, so
// readers compute the lines they show from the events they read, with
// SeatHistory (the history page and API, the catch-up, the story and
// round emails, the digests' table talk, My games' last line); the
// projector's emails take their lines from an event's public row
// (public).

// told is an event as one seat sees it: its redacted data and line.
type told struct {
	data json.RawMessage
	line string
}

// differs reports whether t tells its event otherwise than pub.
func (t told) differs(pub told) bool { return !bytes.Equal(t.data, pub.data) || t.line != pub.line }

// public tells e (ev: its engine event, nil for a service event) as
// everyone may see it.
func public(eng engine.Game, lang string, players []string, e events.Event, ev engine.Event) (told, error) {
	if ev == nil {
		data := pbemevent.RedactService(e.Type, e.Data)
		return told{data: data, line: DescribeService(e.Type, data, players, lang)}, nil
	}
	return redacted(eng, ev, engine.Spectator, players, lang)
}

// redacted tells engine event ev as seat sees it.
func redacted(eng engine.Game, ev engine.Event, seat int, players []string, lang string) (told, error) {
	r := eng.Redact(ev, seat)
	data, err := json.Marshal(r)
	if err != nil {
		return told{}, fmt.Errorf("projections: marshal redacted %s: %w", ev.EventType(), err)
	}
	return told{data: data, line: eng.Describe(r, players, lang)}, nil
}

// rowOf is e's history row for seat, told as t in lang. Its hashes are
// those of the event (see ShowsHashes).
func rowOf(g *Game, players []string, e events.Event, seat int, lang string, t told) HistoryRow {
	r := HistoryRow{GameID: g.ID, Version: e.Version, Seat: seat, Type: e.Type, Actor: e.Meta.Actor, Data: t.data,
		Summary: t.line, RecordedAt: e.RecordedAt.UTC(), ActorName: ActorName(lang, e.Meta.Actor, e.Meta.IdempotencyKey, players)}
	if ShowsHashes(g) {
		r.Hash, r.PrevHash = e.Hash, e.PrevHash
	}
	return r
}

// ShowsHashes reports whether g's event hashes may be shown to its seats:
// always in a game whose chain commits to its events' data (format 2: a
// hash tells nothing of what is hidden), and in an older game (format 1,
// data in clear: a hash would let a seat try the values of a hidden card
// against it) only once it has ended. See package events.
func ShowsHashes(g *Game) bool { return g.CommitKey != nil || g.Ended() }

// SeatHistory is game g's history of evs as seat sees it (Spectator: the
// public history): for each event, its row for seat if seat sees it
// differently, else its public row. evs is a
// run of g's stream read after g (it reaches g.Version at least), so
// that the names of g.Players can be taken back to those of each event.
// games holds g's engine. Errors: an unknown engine, an event the engine
// cannot decode, a run that stops before g.Version.
func SeatHistory(games engine.Registry, g *Game, evs []events.Event, seat int) ([]HistoryRow, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	eng, ok := games[g.Game]
	if !ok {
		return nil, fmt.Errorf("projections: game %s: unknown engine %q", g.ID, g.Game)
	}
	players, err := playersBefore(g, evs)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryRow, 0, len(evs))
	var steps pbemevent.Steps
	for _, e := range evs {
		players = PlayersAfter(players, e)
		r, err := seatRow(eng, g, players, e, seat)
		if err != nil {
			return nil, err
		}
		told := e
		told.Data = r.Data // as the seat sees it: a step is told from what it is shown
		r.Step = steps.Next(told)
		out = append(out, r)
	}
	return out, nil
}

// seatRow is e's row for seat (redacted for it), or its public row when
// seat sees e as everyone does.
func seatRow(eng engine.Game, g *Game, players []string, e events.Event, seat int) (HistoryRow, error) {
	var ev engine.Event
	if !pbemevent.IsServiceEvent(e.Type) {
		var err error
		if ev, err = pbemevent.Decode(eng, e); err != nil {
			return HistoryRow{}, err
		}
	}
	lang := g.Language
	if seat >= 0 {
		lang = g.SeatLanguage(seat) // the reader's (issue #31)
	}
	pub, err := public(eng, lang, players, e, ev)
	if err != nil {
		return HistoryRow{}, err
	}
	if ev != nil && seat >= 0 && seat < len(players) {
		own, err := redacted(eng, ev, seat, players, lang)
		if err != nil {
			return HistoryRow{}, err
		}
		if own.differs(pub) {
			return rowOf(g, players, e, seat, lang, own), nil
		}
	}
	return rowOf(g, players, e, engine.Spectator, lang, pub), nil
}

// playersBefore takes g.Players (the names at g.Version) back to the
// names before evs[0], undoing the replacements of evs up to g.Version
// (a pbem.player_replaced names the seat's previous player).
func playersBefore(g *Game, evs []events.Event) ([]string, error) {
	if last := evs[len(evs)-1].Version; last < g.Version {
		return nil, fmt.Errorf("projections: game %s: history read up to version %d, the game is at %d", g.ID, last, g.Version)
	}
	players := slices.Clone(g.Players)
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.Version > g.Version || e.Type != pbemevent.TypePlayerReplaced {
			continue
		}
		var x pbemevent.PlayerReplaced
		if err := json.Unmarshal(e.Data, &x); err != nil {
			return nil, fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
		}
		if x.Seat >= 0 && x.Seat < len(players) {
			players[x.Seat] = x.Previous
		}
	}
	return players, nil
}

// PlayersAfter is players (the names by seat) after event e: the creation
// names them, a replacement renames its seat (as the projector does).
func PlayersAfter(players []string, e events.Event) []string {
	switch e.Type {
	case pbemevent.TypeCreated:
		var c pbemevent.Created
		if json.Unmarshal(e.Data, &c) == nil {
			return c.Players
		}
	case pbemevent.TypePlayerReplaced:
		var x pbemevent.PlayerReplaced
		if json.Unmarshal(e.Data, &x) == nil && x.Seat >= 0 && x.Seat < len(players) {
			players = slices.Clone(players)
			players[x.Seat] = x.Name
		}
	}
	return players
}
