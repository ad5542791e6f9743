package projections

import (
	"strings"

	"pbem/projections/outbox"
)

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
	if notice == NoticePaused || notice == NoticeResumed {
		return p.formerMails(b, outbox.Notice, notice, lines)
	}
	return nil
}

// formerMails adds the email of kind (a notice: what notice announces) to
// every person who left the game (Game.Former): a pause, a resume and the
// end reach everyone who played in it, in their language, without a link
// to play (their seat's link no longer opens it). A person who holds a
// seat again, and an address told already, get nothing more.
func (p *Projector) formerMails(b *Batch, kind outbox.Kind, notice string, lines mailLines) error {
	g := p.Game
	told := map[string]bool{}
	for _, s := range g.Seats {
		told[strings.ToLower(s.Email)] = true
	}
	for _, f := range g.Former {
		addr := strings.ToLower(f.Email)
		if f.Email == "" || told[addr] {
			continue
		}
		told[addr] = true
		f.Seat, f.Bot = -1, ""
		err := p.addMailWith(b, kind, &f, g.Version, lines, func(m *outbox.Payload) {
			m.To.Seat = -1
			m.Notice = notice
		})
		if err != nil {
			return err
		}
	}
	return nil
}
