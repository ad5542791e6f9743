package api

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/play"
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
	switch play.ErrorCode(err) {
	case "":
	case events.CodeInvalid, events.CodeConflict:
		notice = noticeChatRefused
	default:
		return err
	}
	return p.backToPlay(c, id, tok, notice, "table-talk")
}

// chatLine is one table-talk message on the play page: who wrote it and
// when (in the reader's time zone), and whether the reader has not seen it
// yet (New: written by another player after the version the reader knew,
// the start of "Since your last turn").
type chatLine struct {
	Version int64
	Who     string
	Text    string
	When    when
	New     bool
	Mine    bool
}

// chatLines returns the latest table-talk lines of a game as the seat of
// tok may see them: author (names by seat), time told in cat's language
// and loc, and New for another player's line after version from.
func chatLines(ctx context.Context, svc Reads, id, tok string, seat int, names []string, from int64,
	cat i18n.Printer, loc *time.Location) ([]chatLine, error) {
	talk, err := svc.TableTalk(ctx, id, tok)
	if err != nil {
		return nil, err
	}
	now := svc.Now()
	var out []chatLine
	for _, c := range talk {
		out = append(out, chatLine{Version: c.Version, Who: seatName(names, c.Seat), Text: c.Text,
			When: tellTime(cat, c.RecordedAt, now, loc), Mine: c.Seat == seat, New: c.Seat != seat && c.Version > from})
	}
	if len(out) > chatShown {
		out = out[len(out)-chatShown:]
	}
	return out, nil
}

// chatNotice is what the chat form's redirect (notice n) tells beside the
// form, and whether the line was refused ("" for another notice).
func chatNotice(cat i18n.Printer, n string) (text string, refused bool) {
	switch n {
	case noticeChatSent:
		return cat.T("play.chat_sent"), false
	case noticeChatRefused:
		return cat.T("play.chat_refused", play.MaxChatRunes, play.ChatPerHour), true
	}
	return "", false
}
