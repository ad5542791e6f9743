package projections

import (
	"encoding/json"
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// Each player reads the game in their own language (issue #31): a seat's
// Language, else the game's (Game.SeatLanguage). What the players wrote
// (names, table talk) stays as written; everything the service and the
// engines say is told in the reader's language.

// lineBook tells the events of one append in any reader's language, each
// language once and only when an email asks for it.
type lineBook struct {
	told []bookEvent
	memo map[string][]string
}

// bookEvent is an event of the append with what telling it needs: the
// engine (nil before pbem.created), its engine event (nil for a service
// event) and the players' names when it was appended.
type bookEvent struct {
	eng     engine.Game
	e       events.Event
	ev      engine.Event
	players []string
}

func (b *lineBook) add(eng engine.Game, e events.Event, ev engine.Event, players []string) {
	b.told = append(b.told, bookEvent{eng: eng, e: e, ev: ev, players: players})
}

// in is the append's public lines in lang (nil for a nil book).
func (b *lineBook) in(lang string) ([]string, error) {
	if b == nil {
		return nil, nil
	}
	if l, ok := b.memo[lang]; ok {
		return l, nil
	}
	out := make([]string, 0, len(b.told))
	for _, t := range b.told {
		line, err := public(t.eng, lang, t.players, t.e, t.ev)
		if err != nil {
			return nil, err
		}
		out = append(out, line.line)
	}
	if b.memo == nil {
		b.memo = map[string][]string{}
	}
	b.memo[lang] = out
	return out, nil
}

// toSeat is the append's public lines in lang as the person of seat is
// told them: all but that seat's own muster answer, which it gave (its
// own move it is told, as what made its turn come back).
func (b *lineBook) toSeat(lang string, seat int) ([]string, error) {
	all, err := b.in(lang)
	if err != nil || b == nil {
		return all, err
	}
	actor := pbemevent.SeatActor(seat)
	out := make([]string, 0, len(all))
	for i, t := range b.told {
		if t.e.Meta.Actor == actor && pbemevent.IsAnswer(t.e.Type) {
			continue
		}
		out = append(out, all[i])
	}
	return out, nil
}

// speak is st as a reader of lang is shown it (engine.State.Speak): in
// lang (the game's when empty), naming each seat by whoever holds it now
// (a replaced player's successor), not by the names the game was dealt
// with. The history and the audit name each act's author as of the act
// instead (see history.go).
func speak(g *Game, st engine.State, lang string) engine.State {
	if st == nil {
		return st
	}
	if lang == "" {
		lang = g.Language
	}
	return st.Speak(lang, g.Players)
}

// SpeakTo is st as the player of seat reads it: labelled in the seat's
// language (Game.SeatLanguage).
func SpeakTo(g *Game, st engine.State, seat int) engine.State {
	return speak(g, st, g.SeatLanguage(seat))
}

// language applies pbem.language: the seat's player reads in another
// language from now on (a seat row, saved like a new token). No email.
func (p *Projector) language(b *Batch, e events.Event) error {
	var x pbemevent.Language
	if err := json.Unmarshal(e.Data, &x); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	s := p.Game.SeatAt(x.Seat)
	if s == nil {
		return fmt.Errorf("projections: %s v%d: no seat %d", e.Stream, e.Version, x.Seat)
	}
	s.Language = x.Language
	b.Tokens = append(b.Tokens, *s)
	return nil
}
