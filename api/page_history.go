package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/projections"
)

// historyPage is the data of a seat's history page.
type historyPage struct {
	base
	GameID   string
	GameName string
	Rows     []historyRow
	// Ended links the audit, open once the game has ended.
	Ended bool
}

// historyRow is one event of the timeline.
type historyRow struct {
	Version int64
	Summary string
	Actor   string
	When    when
}

// history: GET /play/:game/history, the seat's redacted history as a
// timeline (the same cookie as the play page).
func (p *pages) history(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	tok, err := cookieToken(c, seatCookie)
	if err != nil {
		return err
	}
	h, err := p.svc.History(ctx, id, tok)
	if err != nil {
		return err
	}
	sm, err := p.svc.Summary(ctx, id)
	if err != nil {
		return err
	}
	lang := seatLang(c, h.Language)
	cat, b := p.cat(lang), p.base(c, lang)
	b.CSRF = p.csrfFor(tok)
	seatMenu(&b, id)
	d := historyPage{base: b, GameID: id, GameName: gameName(cat, sm.Game), Ended: sm.Ended()}
	d.Title = cat.T("history.title", d.GameName)
	names := seatNames(sm)
	now, loc := p.svc.Now(), location(c)
	for _, r := range h.Events {
		who := r.ActorName // the acting seat as named when it acted
		switch {
		case r.Step:
			who = cat.T("history.by_game")
		case who == "":
			who = actorWords(cat, r.Actor, "", names) // not a seat's act
		}
		d.Rows = append(d.Rows, historyRow{Version: r.Version, Summary: r.Summary, Actor: who,
			When: tellTime(cat, r.RecordedAt, now, loc)})
	}
	return p.render(c, http.StatusOK, "history", d)
}

// summaryPage loads game id's public summary, with the page language
// (the game's, unless the visitor chose another), its catalog and the
// page's base. Errors: those of Service.Summary.
func (p *pages) summaryPage(c echo.Context, id string) (*play.Summary, i18n.Printer, base, error) {
	sm, err := p.svc.Summary(c.Request().Context(), id)
	if err != nil {
		return nil, i18n.Printer{}, base{}, err
	}
	lang := pickLang(c, sm.Language)
	return sm, p.cat(lang), p.base(c, lang), nil
}

// gameName is a game's display name.
func gameName(cat i18n.Printer, game string) string {
	return textOr(cat, "game."+game, game)
}

// seatNames lists a game's players by seat.
func seatNames(sm *play.Summary) []string {
	names := make([]string, len(sm.Seats))
	for _, s := range sm.Seats {
		if s.Seat >= 0 && s.Seat < len(names) {
			names[s.Seat] = s.Name
		}
	}
	return names
}

// actorWords names who acted in words a player reads (the history and
// audit pages; the audit's JSON keeps the actor ids), key being the
// event's idempotency key: the seat's holder, a bot's seat as the game
// names it ("Bot 3 (bot)", projections.ActorName), a bot that played for
// a seat whose time ran out by its level ("Bot (normal)"), "the
// organiser", "played for Ann: the only move" (a forced step), else "the
// game" (the deadline's own events).
func actorWords(cat i18n.Printer, actor, key string, names []string) string {
	if s, ok := pbemevent.SeatOfActor(actor); ok {
		return seatName(names, s)
	}
	if level, ok := pbemevent.LevelOfBot(actor); ok {
		if n := projections.ActorName(cat.Lang(), actor, key, names); n != "" {
			return n
		}
		return projections.BotLevelName(cat.Lang(), level)
	}
	if actor == "admin" {
		return cat.T("history.by_organiser")
	}
	if seat, ok := pbemevent.SeatOfForced(actor); ok {
		return cat.T("history.forced", seatName(names, seat))
	}
	return cat.T("history.by_game")
}
