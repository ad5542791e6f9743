package projections_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
	"pbem/projections/testgame"
)

// owedNow is the clock of the table: a fresh deadline is an hour after it.
var owedNow = time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)

// The table's times: a deadline the game had, and one an event sets.
var (
	hadDeadline = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	setDeadline = time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)
)

const owedGrace = 2 * time.Minute

// owedGame is a game of the table: Ann (seat 0) and Bob (seat 1) read
// email, Hal (seat 2) is a bot from the start; Cy played seat 1 before Bob.
// Its turn deadline is an hour, its reminder ten minutes before.
func owedGame(status string, version int64, toMove ...int) *projections.Game {
	g := &projections.Game{ID: "g", Game: testgame.Name, Language: "en", Players: []string{"Ann", "Bob", "Hal"},
		Status: status, Version: version, ToMove: toMove, TurnDeadline: time.Hour, ReminderBefore: 10 * time.Minute,
		Seats: []projections.Seat{{Seat: 0, Name: "Ann", Email: "ann@example.org"}, {Seat: 1, Name: "Bob", Email: "bob@example.org"},
			{Seat: 2, Name: "Hal", Bot: "easy"}},
		Former: []projections.Seat{{Seat: 1, Name: "Cy", Email: "cy@example.org"}}}
	if status == projections.StatusActive {
		r := hadDeadline.Add(-10 * time.Minute)
		g.DeadlineAt, g.ReminderAt = &hadDeadline, &r
	}
	return g
}

// with returns g changed by f (a seat handed to a bot, ...).
func with(g *projections.Game, f func(*projections.Game)) *projections.Game { f(g); return g }

// owedEvent is one event of the table: a service event (data: its JSON
// data) or an engine event (data: the decoded event).
type owedEvent struct {
	version int64
	typ     string
	actor   string
	data    any
}

// TestOwedDecidesWhatAnAppendOwes: each row is a game before an append,
// the append's events, the game the fold made of them, and the emails and
// deadline the append owes.
func TestOwedDecidesWhatAnAppendOwes(t *testing.T) {
	played := func(v int64, seat int) owedEvent {
		return owedEvent{v, "played", fmt.Sprintf("seat:%d", seat), testgame.Played{Seat: seat, Card: "c1"}}
	}
	fresh := []time.Time{owedNow.Add(time.Hour), owedNow.Add(50 * time.Minute)}
	had := []time.Time{hadDeadline, hadDeadline.Add(-10 * time.Minute)}
	set := []time.Time{setDeadline, setDeadline.Add(-10 * time.Minute)}
	for _, c := range []struct {
		name     string
		before   *projections.Game
		events   []owedEvent
		after    *projections.Game
		mails    []string    // kind→recipient version, lines told, notice, delay
		deadline []time.Time // deadline and reminder; nil: none
	}{
		{"a move gives the turn to the next seat: its your-turn email waits the grace",
			owedGame("active", 4, 0), []owedEvent{played(5, 0)}, owedGame("active", 5, 1),
			[]string{"your_turn→1 v5 append +2m0s"}, fresh},
		{"a move that keeps the seat awaited owes nothing and keeps the deadline",
			owedGame("active", 4, 0), []owedEvent{{5, "drew", "seat:0", testgame.Drew{Seat: 0}}}, owedGame("active", 5, 0),
			nil, had},
		{"a round's end: its result to every seat that reads email, which asks the awaited seat's move (no your-turn email beside it)",
			owedGame("active", 4, 1), []owedEvent{played(5, 1), {6, "round_ended", "seat:1", testgame.RoundEnded{Round: 1}}},
			owedGame("active", 6, 0),
			[]string{"round_end→0 v6 append +2m0s", "round_end→1 v6 append +2m0s"}, fresh},
		{"a round's end at a timeout: the timeout email, and the round-end emails at once",
			owedGame("active", 4, 1),
			[]owedEvent{{5, pbemevent.TypeTimeout, "system", pbemevent.Timeout{Seats: []int{1}, Policy: "default_move"}},
				{6, "played", "system", testgame.Played{Seat: 1, Card: "c1"}}, {7, "round_ended", "system", testgame.RoundEnded{Round: 1}}},
			owedGame("active", 7, 0), []string{"timeout→1 v7 append", "round_end→0 v7 append", "round_end→1 v7 append"}, fresh},
		{"a round's end that gives the turn to a bot's seat: the round-end emails, no turn",
			owedGame("active", 4, 1), []owedEvent{played(5, 1), {6, "round_ended", "seat:1", testgame.RoundEnded{Round: 1}}},
			owedGame("active", 6, 2), []string{"round_end→0 v6 append +2m0s", "round_end→1 v6 append +2m0s"}, fresh},
		{"the turn of a bot's seat owes no email",
			owedGame("active", 4, 1), []owedEvent{played(5, 1)}, owedGame("active", 5, 2), nil, fresh},
		{"the turn of a seat a bot plays for its person owes it no email",
			owedGame("active", 4, 0), []owedEvent{played(5, 0)},
			with(owedGame("active", 5, 1), func(g *projections.Game) { g.Seats[1].Bot = "easy" }), nil, fresh},
		{"a timeout: the timeout email and the next turn go at once, though a bot played the seat's move",
			owedGame("active", 4, 0),
			[]owedEvent{{5, pbemevent.TypeTimeout, "system", pbemevent.Timeout{Seats: []int{0}, Policy: "bot"}},
				{6, "played", "bot:normal", testgame.Played{Seat: 0, Card: "c1"}}},
			owedGame("active", 6, 1), []string{"timeout→0 v6 append", "your_turn→1 v6 append"}, fresh},
		{"a new game: an invitation to each person, none to the bot",
			&projections.Game{ID: "g", Seats: owedGame("", 0).Seats},
			[]owedEvent{{1, pbemevent.TypeCreated, "organiser", pbemevent.Created{Game: testgame.Name, Players: []string{"Ann", "Bob", "Hal"}}}},
			owedGame("active", 1, 0), []string{"invitation→0 v1 append", "invitation→1 v1 append"}, fresh},
		{"the end: the result to every person, a seat a bot plays included, and to who left",
			owedGame("active", 9, 1), []owedEvent{played(10, 1)},
			with(owedGame("finished", 10), func(g *projections.Game) { g.Seats[0].Bot = "easy" }),
			[]string{"game_over→0 v10 append +2m0s", "game_over→1 v10 append +2m0s", "game_over→cy@example.org v10 append +2m0s"}, nil},
		{"a pause: a notice to every person, and to who left",
			owedGame("active", 4, 0), []owedEvent{{5, pbemevent.TypePaused, "admin", struct{}{}}}, owedGame("paused", 5, 0),
			[]string{"notice→0 v5 append paused", "notice→1 v5 append paused", "notice→cy@example.org v5 append paused"}, nil},
		{"a resume: the awaited seat's turn, notices to the others, the deadline it sets",
			owedGame("paused", 5, 0), []owedEvent{{6, pbemevent.TypeResumed, "admin", pbemevent.Resumed{DeadlineAt: setDeadline}}},
			owedGame("active", 6, 0),
			[]string{"your_turn→0 v6 append", "notice→1 v6 append resumed", "notice→cy@example.org v6 append resumed"}, set},
		{"an extension: notices to the seats, the deadline it sets",
			owedGame("active", 5, 0), []owedEvent{{6, pbemevent.TypeExtended, "admin", pbemevent.Extended{By: "24h", DeadlineAt: setDeadline}}},
			owedGame("active", 6, 0), []string{"notice→0 v6 append extended", "notice→1 v6 append extended"}, set},
		{"table talk: the line to every other seat that reads email",
			owedGame("active", 5, 1), []owedEvent{{6, pbemevent.TypeChat, "seat:0", pbemevent.Chat{Seat: 0, Text: "hi"}}},
			owedGame("active", 6, 1), []string{"chat→1 v6 chat"}, had},
		{"a take-back owes no email: the seat that took its move back knows",
			owedGame("active", 5, 1), []owedEvent{{6, pbemevent.TypeTakeback, "seat:0", pbemevent.Takeback{Seat: 0, Version: 5, From: 5}}},
			owedGame("active", 6, 0), nil, fresh},
		{"a new player: their invitation, a notice to the others",
			owedGame("active", 5, 0), []owedEvent{{6, pbemevent.TypePlayerReplaced, "admin", pbemevent.PlayerReplaced{Seat: 1, Name: "Bob", Previous: "Cy", TokenGen: 1}}},
			owedGame("active", 6, 0), []string{"invitation→1 v6 nothing", "notice→0 v6 append replaced"}, had},
		{"a new address: the seat's new link, nothing to the others",
			owedGame("active", 5, 0), []owedEvent{{6, pbemevent.TypeEmailChanged, "admin", pbemevent.EmailChanged{Seat: 1, TokenGen: 1}}},
			owedGame("active", 6, 0), []string{"link→1 v6 nothing"}, had},
		{"a link resent: the seat's new link",
			owedGame("active", 5, 0), []owedEvent{{6, pbemevent.TypeLinkResent, "admin", pbemevent.LinkResent{Seat: 0, TokenGen: 1}}},
			owedGame("active", 6, 0), []string{"link→0 v6 nothing"}, had},
		{"a seat handed to a bot: its person and the others are told by notice, after the grace (the hand-offs within it go as one email)",
			owedGame("active", 5, 0), []owedEvent{{6, pbemevent.TypeSeatBot, "admin", pbemevent.SeatBot{Seat: 1, Bot: "easy"}}},
			with(owedGame("active", 6, 0), func(g *projections.Game) { g.Seats[1].Bot = "easy" }),
			[]string{"notice→0 v6 append bot +2m0s", "notice→1 v6 append bot +2m0s"}, had},
		{"a seat handed back to its person: a new link to it, notices to the others after the grace",
			with(owedGame("active", 5, 0), func(g *projections.Game) { g.Seats[1].Bot = "easy" }),
			[]owedEvent{{6, pbemevent.TypeSeatBot, "admin", pbemevent.SeatBot{Seat: 1, TokenGen: 2}}},
			owedGame("active", 6, 0), []string{"link→1 v6 nothing", "notice→0 v6 append bot_back +2m0s"}, had},
		{"the muster's last answer by reply: the start's email to that seat waits the grace (the answer to the reply tells it)",
			owedGame("muster", 4), []owedEvent{{5, pbemevent.TypeAccepted, "seat:1", pbemevent.Accepted{Seat: 1, By: pbemevent.ByReply}},
				{6, pbemevent.TypeMustered, "seat:1", pbemevent.Mustered{By: "all"}}},
			owedGame("active", 6, 0), []string{"your_turn→0 v6 append", "notice→1 v6 append mustered +2m0s"}, fresh},
		{"the muster's last answer on the page: the start's emails go at once",
			owedGame("muster", 4), []owedEvent{{5, pbemevent.TypeAccepted, "seat:0", pbemevent.Accepted{Seat: 0, By: pbemevent.ByPage}},
				{6, pbemevent.TypeMustered, "seat:0", pbemevent.Mustered{By: "all"}}},
			owedGame("active", 6, 0), []string{"your_turn→0 v6 append", "notice→1 v6 append mustered"}, fresh},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := projections.Append{Before: c.before, After: c.after, Engine: testgame.Game{}, Now: owedNow, Grace: owedGrace}
			for _, e := range c.events {
				ev := events.Event{Stream: "g", Version: e.version, Type: e.typ, Meta: events.Metadata{Actor: e.actor}}
				var dec engine.Event
				if pbemevent.IsServiceEvent(e.typ) {
					data, err := json.Marshal(e.data)
					if err != nil {
						t.Fatal(err)
					}
					ev.Data = data
				} else {
					dec = e.data.(engine.Event)
				}
				a.Events, a.Decoded = append(a.Events, ev), append(a.Decoded, dec)
			}
			eff, err := projections.Owed(a)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range eff.Mails {
				got = append(got, mailString(m))
			}
			if !reflect.DeepEqual(got, c.mails) {
				t.Errorf("mails\n got %q\nwant %q", got, c.mails)
			}
			var dl []time.Time
			if eff.Deadline != nil && eff.Reminder != nil {
				dl = []time.Time{*eff.Deadline, *eff.Reminder}
			} else if eff.Deadline != nil || eff.Reminder != nil {
				t.Errorf("deadline %v, reminder %v: one without the other", eff.Deadline, eff.Reminder)
			}
			if !reflect.DeepEqual(dl, c.deadline) {
				t.Errorf("deadline and reminder %v; want %v", dl, c.deadline)
			}
		})
	}
}

// mailString writes m as the table does: kind→recipient (a seat, or the
// address of a person who left), version, the lines it tells, its notice
// and its delay.
func mailString(m projections.Mail) string {
	to := fmt.Sprint(m.To.Seat)
	if m.To.Seat < 0 {
		to = m.To.Email
	}
	s := fmt.Sprintf("%s→%s v%d %s", m.Kind, to, m.Version, [...]string{"nothing", "append", "chat"}[m.Tells])
	if m.Notice != "" {
		s += " " + m.Notice
	}
	if m.Delay != 0 {
		s += " +" + m.Delay.String()
	}
	return strings.TrimSpace(s)
}
