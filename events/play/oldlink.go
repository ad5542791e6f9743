package play

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"time"

	"pbem/events/pbemevent"
	"pbem/events/tokens"
)

// OldLink is what became of a play link that no longer opens its game:
// the seat it opened, whose it was, and the organiser's act that ended it
// (a replacement, a corrected address, a link sent again, a seat handed
// back from a bot), so that its page says what happened rather than
// "use the link of your latest email" to someone who has none.
type OldLink struct {
	Seat int
	// Name is who held the seat with this link; NewName, for a
	// replacement, who holds it since.
	Name    string
	NewName string
	// Type is the pbem.* event that gave the seat a newer link, At when.
	Type string
	At   time.Time
}

// Replaced reports whether the link's holder no longer plays the seat.
func (o *OldLink) Replaced() bool { return o.Type == pbemevent.TypePlayerReplaced }

// OldLinkOf tells what became of token, an older play link of game id
// (nil, nil when it is none: a token never issued, or the current one).
// Errors: events.CodeNotFound for an unknown game.
func (s *Service) OldLinkOf(ctx context.Context, id, token string) (*OldLink, error) {
	g, err := s.game(ctx, id)
	if err != nil {
		return nil, err
	}
	seat, gen := -1, -1
	for _, st := range g.Seats {
		for n := range st.TokenGen {
			if subtle.ConstantTimeCompare([]byte(token), []byte(tokens.Seat(s.secret, id, st.Seat, n))) == 1 {
				seat, gen = st.Seat, n
			}
		}
	}
	if seat < 0 {
		return nil, nil
	}
	evs, err := s.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	players := []string{}
	for _, e := range evs {
		var x struct {
			Seat     int    `json:"seat"`
			TokenGen int    `json:"token_gen"`
			Name     string `json:"name"`
			Previous string `json:"previous"`
		}
		switch e.Type {
		case pbemevent.TypeCreated:
			var c pbemevent.Created
			if json.Unmarshal(e.Data, &c) == nil {
				players = c.Players
			}
			continue
		case pbemevent.TypePlayerReplaced, pbemevent.TypeEmailChanged, pbemevent.TypeLinkResent, pbemevent.TypeSeatBot:
		default:
			continue
		}
		if json.Unmarshal(e.Data, &x) != nil || x.Seat != seat || x.TokenGen != gen+1 {
			if e.Type == pbemevent.TypePlayerReplaced && x.Seat >= 0 && x.Seat < len(players) {
				players[x.Seat] = x.Name
			}
			continue
		}
		o := &OldLink{Seat: seat, Type: e.Type, At: e.RecordedAt.UTC()}
		if seat < len(players) {
			o.Name = players[seat]
		}
		if e.Type == pbemevent.TypePlayerReplaced {
			o.Name, o.NewName = x.Previous, x.Name
		}
		return o, nil
	}
	return nil, nil
}
