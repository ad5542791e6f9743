package api

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
)

// The muster before the first turn on the play page (issue #46;
// events/play/muster.go): who has said they will play, until when the
// game waits, and the reader's two buttons.

// Notices of the muster form's redirect.
const (
	noticeAccepted   = "accepted"
	noticeDeclined   = "declined"
	noticeMusterOver = "musterover"
)

// musterPanel is the muster as the play page shows it.
type musterPanel struct {
	Until   when
	Default string
	Rows    []musterRow
	// Mine is the reader's own answer (play.Answer*); CanAnswer: the
	// reader's seat is a person's, who may answer or change their answer.
	Mine      string
	CanAnswer bool
}

// musterRow is one seat's answer, in words; Name is its player's, with
// "(you)" for the reader's own.
type musterRow struct {
	Name   string
	Answer string
	You    bool
}

// musterPanel is game id's muster as seat reads it, in cat's language.
func (p *pages) musterPanel(c echo.Context, cat i18n.Printer, id string, seat int, names []string) (*musterPanel, error) {
	m, err := p.svc.MusterOf(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	mp := &musterPanel{Until: tellTime(cat, m.Until, p.svc.Now(), location(c)), Default: cat.T("muster.default." + m.Default)}
	for i, a := range m.Answers {
		name := ""
		if i < len(names) {
			name = names[i]
		}
		word := cat.T("muster.waiting")
		if a != play.AnswerNone {
			word = cat.T("muster." + a)
		}
		if i == seat {
			name += " " + cat.T("play.you")
		}
		mp.Rows = append(mp.Rows, musterRow{Name: name, Answer: word, You: i == seat})
		if i == seat {
			mp.Mine, mp.CanAnswer = a, a != play.AnswerBot
		}
	}
	return mp, nil
}

// answerMuster: POST /play/:game/muster (form: csrf, answer=yes|no). It
// answers 303 to the play page, with a notice of what happened.
func (p *pages) answerMuster(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	var yes bool
	switch c.FormValue("answer") {
	case "yes":
		yes = true
	case "no":
	default:
		return events.FieldErrorf(events.CodeInvalid, "answer", "answer: give yes or no")
	}
	notice := noticeDeclined
	if yes {
		notice = noticeAccepted
	}
	err = p.svc.Answer(c.Request().Context(), id, tok, yes, requestID(c))
	switch play.ErrorCode(err) {
	case "":
	case events.CodeConflict:
		notice = noticeMusterOver
	default:
		return err
	}
	return p.backToPlay(c, id, tok, notice, "muster")
}

// musterNotice is the notice of the muster form's redirect, or "". over
// tells whether the game is past its muster as the page reads it: the
// reader's answer was the last one, and the game began (or, declined,
// was called off), so that "the game begins once everyone has answered"
// and "you can still change your mind" are no longer true.
func musterNotice(cat i18n.Printer, n string, over bool) string {
	switch {
	case n == noticeAccepted && over:
		return cat.T("muster.notice_yes_over")
	case n == noticeAccepted:
		return cat.T("muster.notice_yes")
	case n == noticeDeclined && over:
		return cat.T("muster.notice_no_over")
	case n == noticeDeclined:
		return cat.T("muster.notice_no")
	case n == noticeMusterOver:
		return cat.T("muster.notice_over")
	}
	return ""
}

// musterNone is the lobby form's value for "no muster".
const musterNone = "0"

// musterChoices are the lobby form's muster choices, with the posted ones
// (or the defaults: a muster of 48 hours, a bot for a silent seat)
// selected. Every game of the form has a turn deadline, so the muster is
// on unless the organiser turns it off.
func musterChoices(cat i18n.Printer, wait, def string) (waits, defaults []option) {
	if wait == "" {
		wait = "48h"
	}
	if def == "" {
		def = pbemevent.MusterBot
	}
	waits = append(waits, option{Value: musterNone, Label: cat.T("lobby.muster_none"), Selected: wait == musterNone})
	for _, h := range []int{24, 48, 72} {
		v := strconv.Itoa(h) + "h"
		waits = append(waits, option{Value: v, Label: cat.T("lobby.hours", h), Selected: v == wait})
	}
	for _, x := range []string{pbemevent.MusterBot, pbemevent.MusterAbort} {
		defaults = append(defaults, option{Value: x, Label: cat.T("lobby.muster_default." + x), Selected: x == def})
	}
	return waits, defaults
}

// formMuster reads the lobby form's muster into req: none when the form
// says so ("0") or has no such field (a form of an older page).
func formMuster(c echo.Context, req *play.CreateGame) error {
	wait := c.FormValue("muster")
	if wait == "" || wait == musterNone {
		return nil
	}
	d, err := parseDuration("muster", wait)
	if err != nil {
		return err
	}
	req.Muster, req.MusterDefault = d, c.FormValue("muster_default")
	return nil
}

// musterWords says a proposed game's muster in words, for the organiser's
// confirmation page: none, or how long it waits and what a silent seat
// gets.
func musterWords(cat i18n.Printer, wait time.Duration, def string) string {
	if wait <= 0 {
		return cat.T("lobby.muster_none")
	}
	if def == "" {
		def = pbemevent.MusterBot
	}
	return cat.Label("lobby.muster_wait") + durationWords(cat, wait) + " · " + cat.T("lobby.muster_default") + " " +
		cat.T("lobby.muster_default."+def)
}
