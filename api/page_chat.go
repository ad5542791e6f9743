package api

import (
	"context"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events/play"
	"pbem/projections"
)

// Table talk on the play page: the last messages of the table, and a form
// that writes one (the same pbem.chat event as a "chat:" line in a reply).

// chatShown is how many of the latest table-talk messages the play page shows.
const chatShown = 10

// Notices of the chat form.
const (
	noticeChatSent    = "chat"
	noticeChatRefused = "chatbad"
)

// chat: POST /play/:game/chat (form: csrf, text). It answers 303 to the
// play page, with a notice (or that page, to a fetch: page_fetch.go).
func (p *pages) chat(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	notice := noticeChatSent
	err = p.svc.Chat(ctx, id, tok, c.FormValue("text"), requestID(c))
	switch projections.ErrorCode(err) {
	case "":
	case projections.EInvalid, projections.EConflict:
		notice = noticeChatRefused
	default:
		return err
	}
	return p.backToPlay(c, id, tok, notice, "table-talk")
}

// chatLines returns the latest table-talk lines of a game as the seat's
// history has them (already in the game's language).
func chatLines(ctx context.Context, svc Reads, id, tok string) ([]string, error) {
	h, err := svc.History(ctx, id, tok)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range h.Events {
		if r.Type == projections.TypeChat {
			out = append(out, r.Summary)
		}
	}
	if len(out) > chatShown {
		out = out[len(out)-chatShown:]
	}
	return out, nil
}

// chatNotice is the notice of the chat form's redirect, or "".
func chatNotice(cat i18n.Printer, n string) string {
	switch n {
	case noticeChatSent:
		return cat.T("play.chat_sent")
	case noticeChatRefused:
		return cat.T("play.chat_refused", play.MaxChatRunes, play.ChatPerHour)
	}
	return ""
}
