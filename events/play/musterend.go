package play

import (
	"context"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// MusterEnd is what a game's muster came to after a seat's answer, as the
// answer to that seat's reply tells it (api/inbound): when that answer was
// the last one, the answer is the one email its person gets about the
// start (the your-turn email or notice the start owes them is folded into
// it, see docs/email.md).
type MusterEnd struct {
	// Over: the game no longer waits for its players (it began, or was
	// called off).
	Over bool
	// Lines tell what happened after the seat's last answer, in the
	// seat's language and as the seat may see them: the muster's end (who
	// declined or never answered, the bots that took their seats, the
	// game beginning or called off) and anything since. Its own answer and
	// table talk, and the game's creation, are left out, as a your-turn
	// email's story leaves them out. Empty while the game waits.
	Lines []string
}

// MusterEndFor tells seat of game id what its muster came to after the
// seat's last answer (see MusterEnd). Errors: events.CodeNotFound.
func (s *Service) MusterEndFor(ctx context.Context, id string, seat int) (*MusterEnd, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	if g.SeatAt(seat) == nil {
		return nil, events.Errorf(events.CodeNotFound, "game %s has no seat %d", id, seat)
	}
	if g.Status == projections.StatusMuster {
		return &MusterEnd{}, nil
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	me := pbemevent.SeatActor(seat)
	answer := -1
	for i, e := range evs {
		if e.Meta.Actor == me && pbemevent.IsAnswer(e.Type) {
			answer = i
		}
	}
	end := &MusterEnd{Over: true}
	if answer < 0 {
		return end, nil // the seat never answered: nothing is told after its answer
	}
	told := *g
	told.Language = g.SeatLanguage(seat)
	rows, err := projections.SeatHistory(s.games, &told, evs[answer+1:], seat)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		own := pbemevent.ActingSeat(r.Actor, evs[answer+1+i].Meta.IdempotencyKey) == seat
		if r.Summary == "" || r.Type == pbemevent.TypeCreated || r.Type == pbemevent.TypeLanguage || (r.Type == pbemevent.TypeChat && own) {
			continue
		}
		end.Lines = append(end.Lines, r.Summary)
	}
	return end, nil
}
