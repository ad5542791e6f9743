package projections

import "pbem/projections/outbox"

// What a notice email announces (Mail.Notice): the organiser paused the
// game (or a timeout under the pause policy did), resumed it, extended its
// deadline, gave a seat to a new player (Replaced; the player who left
// gets Left, from the game service, which alone knows their address),
// handed a seat to a bot (Bot) or back to its person (BotBack).
const (
	NoticePaused   = "paused"
	NoticeResumed  = "resumed"
	NoticeExtended = "extended"
	NoticeReplaced = "replaced"
	NoticeLeft     = "left"
	NoticeBot      = "bot"
	NoticeBotBack  = "bot_back"
)

// noticeMails adds a short notice email about an append that paused,
// resumed or extended the game, or changed who plays a seat (notice; ""
// for none) for every person of the game this append sends no other email
// (a seat a bot plays for its person included): a seat whose turn a
// resume gives back gets its your-turn email instead, a seat that timed
// out its timeout email, a new player their invitation. lines are the
// append's public lines (what the notice says).
func (p *Projector) noticeMails(b *Batch, notice string, lines mailLines) error {
	if notice == "" {
		return nil
	}
	g := p.Game
	mailed := map[int]bool{}
	for _, r := range b.Outbox {
		if r.Seat != nil && r.EventVersion == g.Version {
			mailed[*r.Seat] = true
		}
	}
	for i := range g.Seats {
		s := &g.Seats[i]
		if mailed[s.Seat] {
			continue
		}
		if err := p.addMailWith(b, outbox.Notice, s, g.Version, lines, func(m *outbox.Payload) { m.Notice = notice }); err != nil {
			return err
		}
	}
	return nil
}
