package play

import (
	"context"
	"time"

	"pbem/projections"
)

// AdminSeat is one seat of a game as its organiser sees it in the admin
// page's seat table (issue #31): who plays it, at which address, whether a
// bot plays it, when its player last opened the play page, and since when
// the game awaits it.
type AdminSeat struct {
	Seat  int
	Name  string
	Email string
	// Bot is the level of the bot that plays the seat, "" for a person.
	Bot string
	// HandBack is set when a bot plays the seat for the person who held
	// it (the organiser's choice, a muster's silence, an away), to whom
	// the organiser may give it back; not for a seat a bot has played
	// since the start, which has no one to give it back to.
	HandBack bool
	// LastVisit is when the seat last opened its play page (nil: never,
	// or before visits were dated).
	LastVisit *time.Time
	// AwaitedSince is when the game began to await the seat (nil: not
	// awaited, or the game is not running).
	AwaitedSince *time.Time
}

// AdminSeats lists the seats of game id for its organiser, by seat.
// Errors: events.CodeNotFound, events.CodeUnauthorized.
func (s *Service) AdminSeats(ctx context.Context, id, adminToken string) ([]AdminSeat, error) {
	g, err := s.authAdmin(ctx, id, adminToken)
	if err != nil {
		return nil, err
	}
	visits, err := s.visits.LastVisits(ctx, id)
	if err != nil {
		return nil, err
	}
	waiting, err := s.WaitingFor(ctx, id)
	if err != nil {
		return nil, err
	}
	awaited := map[int]time.Time{}
	for _, w := range waiting {
		awaited[w.Seat] = w.Since
	}
	out := make([]AdminSeat, 0, len(g.Seats))
	for _, st := range g.Seats {
		a := AdminSeat{Seat: st.Seat, Name: st.Name, Email: st.Email, Bot: st.Bot, HandBack: handsBack(&st)}
		if t, ok := visits[st.Seat]; ok {
			a.LastVisit = &t
		}
		if t, ok := awaited[st.Seat]; ok && g.Status == projections.StatusActive {
			a.AwaitedSince = &t
		}
		out = append(out, a)
	}
	return out, nil
}
