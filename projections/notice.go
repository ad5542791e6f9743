package projections

import "pbem/projections/outbox"

// What a notice email announces (Mail.Notice): the organiser paused the
// game (or a timeout under the pause policy did), resumed it, or extended
// its deadline.
const (
	NoticePaused   = "paused"
	NoticeResumed  = "resumed"
	NoticeExtended = "extended"
)

// noticeMails adds a short notice email about an append that paused,
// resumed or extended the game (notice; "" for none) for every seat this
// append sends no other email: a seat whose turn a resume gives back gets
// its your-turn email instead, and a seat that timed out its timeout email.
// lines are the append's public lines (what the notice says).
func (p *Projector) noticeMails(b *Batch, notice string, lines []string) error {
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
