package projections

import (
	"strings"

	"pbem/projections/outbox"
)

// What a notice email announces (Mail.Notice): the organiser paused the
// game (or a timeout under the pause policy did), resumed it, extended its
// deadline, gave a seat to a new player (Replaced; the player who left
// gets Left, from the game service, which alone knows their address),
// handed a seat to a bot (Bot) or back to its person (BotBack), or a
// restore of the database cut the game's history (HistoryCut).
const (
	NoticePaused   = "paused"
	NoticeResumed  = "resumed"
	NoticeExtended = "extended"
	NoticeReplaced = "replaced"
	NoticeLeft     = "left"
	NoticeBot      = "bot"
	NoticeBotBack  = "bot_back"
	// NoticeMustered: the muster is over and the game begins.
	NoticeMustered = "mustered"
	// NoticeHistoryCut: pbem.history_cut, the moves after a version are
	// gone (play.Service.TellHistoryCut).
	NoticeHistoryCut = "history_cut"
)

// Handoff reports whether a notice tells that a seat went to a bot or back
// to its person: such notices to one person within the mail grace go as
// one email (notify.StaleHandoff), an organiser often hands several seats
// in a row.
func Handoff(notice string) bool { return notice == NoticeBot || notice == NoticeBotBack }

// notices are the short notice emails of an append that paused, resumed
// or extended the game, or changed who plays a seat (notice; "" for
// none): one to every person of the game the append owes no other email
// about its last version (owed so far: mailed), a seat a bot plays for
// its person included. So a seat whose turn a resume gives back gets its
// your-turn email instead, a seat that timed out its timeout email, a new
// player their invitation. A pause and a resume are told to the people who
// left the game too. Each tells the append's public lines.
func notices(a Append, notice string, mailed []Mail) []Mail {
	if notice == "" {
		return nil
	}
	g := a.After
	told := map[int]bool{}
	for _, m := range mailed {
		if m.To.Seat >= 0 && m.Version == g.Version {
			told[m.To.Seat] = true
		}
	}
	var out []Mail
	m := Mail{Kind: outbox.Notice, Version: g.Version, Tells: TellsAppend, Notice: notice}
	for _, s := range g.Seats {
		if !told[s.Seat] {
			m.To = s
			out = owe(out, m)
		}
	}
	if notice == NoticePaused || notice == NoticeResumed {
		out = formers(out, g, m)
	}
	return out
}

// formers adds m to out for every person who left g (Game.Former): a
// pause, a resume and the end reach everyone who played in it, in their
// language, without a link to play (their seat's link no longer opens
// it). A person who holds a seat again, and an address told already, get
// nothing more.
func formers(out []Mail, g *Game, m Mail) []Mail {
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
		m.To = f
		out = owe(out, m)
	}
	return out
}
