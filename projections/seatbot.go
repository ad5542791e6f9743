package projections

import (
	"encoding/json"
	"fmt"
	"pbem/events/pbemevent"

	"pbem/events"
)

// Bots returns, by seat, the level of the bot that plays it ("" for a
// person), or nil when no seat is a bot's.
func (g *Game) Bots() []string {
	var out []string
	for _, s := range g.Seats {
		if s.Bot == "" {
			continue
		}
		if out == nil {
			out = make([]string, len(g.Players))
		}
		if s.Seat >= 0 && s.Seat < len(out) {
			out[s.Seat] = s.Bot
		}
	}
	return out
}

// IsBot reports whether seat is played by a bot.
func (g *Game) IsBot(seat int) bool {
	s := g.SeatAt(seat)
	return s != nil && s.Bot != ""
}

// createdBots sets the seats' bots from pbem.created.
func (g *Game) createdBots(c *pbemevent.Created) {
	for i := range g.Seats {
		if n := g.Seats[i].Seat; n >= 0 && n < len(c.Bots) {
			g.Seats[i].Bot = c.Bots[n]
		}
	}
}

// seatBot applies pbem.seat_bot: the seat's bot column changes (a seat row,
// saved like a new token), and a seat handed back to its person gets a new
// token generation (its new play link is Owed's to send).
func (p *Projector) seatBot(b *Batch, e events.Event) error {
	var sb pbemevent.SeatBot
	if err := json.Unmarshal(e.Data, &sb); err != nil {
		return fmt.Errorf("projections: %s v%d: %w", e.Stream, e.Version, err)
	}
	s := p.Game.SeatAt(sb.Seat)
	if s == nil {
		return nil
	}
	s.Bot = sb.Bot
	if sb.Bot == "" {
		s.TokenGen = sb.TokenGen
	}
	b.Tokens = append(b.Tokens, *s)
	return nil
}
