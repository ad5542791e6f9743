package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
)

// createPlayer is a player of POST /api/v1/games: a person (name, email)
// or a bot (bot: "easy", "normal" or "strong"; name optional, no email).
type createPlayer struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Bot   string `json:"bot"`
	// Language is the language this player reads ("en", "fr", "it"):
	// their pages and emails. Absent: the game's.
	Language string `json:"language"`
}

type createBody struct {
	Game           string          `json:"game"`
	Language       string          `json:"language"`
	Players        []createPlayer  `json:"players"`
	Options        json.RawMessage `json:"options"`
	TurnDeadline   string          `json:"turn_deadline"`
	ReminderBefore string          `json:"reminder_before"`
	TimeoutPolicy  string          `json:"timeout_policy"`
	// AwayPolicy is what a player being away does: "wait" (absent),
	// "bot" or "forbid" (issue #43).
	AwayPolicy string        `json:"away_policy"`
	Organiser  *createPlayer `json:"organiser"`
	// Muster ("48h"; absent: none) makes the first turn wait for every
	// invited person to accept; MusterDefault ("bot" or "abort") is what a
	// seat that declined or never answered gets (issue #46).
	Muster        string `json:"muster"`
	MusterDefault string `json:"muster_default"`
}

type createdBody struct {
	ID         string          `json:"id"`
	AdminToken string          `json:"admin_token,omitempty"`
	Seats      []play.SeatName `json:"seats"`
}

// createGame: POST /api/v1/games. The game is proposed: only its
// organiser is emailed, a confirmation link (see confirmGame); the answer
// is 202 with the proposal's id (the future game's). Limits: 429.
func (s *Server) createGame(c echo.Context) error {
	var b createBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	req, err := b.request(c)
	if err != nil {
		return err
	}
	ch, err := s.limit.proposal(clientIP(c), req.Organiser.Email, len(req.Players), req.Emails())
	if err != nil {
		return err
	}
	pr, err := s.svc.Propose(c.Request().Context(), req)
	if err != nil {
		ch.undo()
		return err
	}
	return c.JSON(http.StatusAccepted, proposedBody{ID: pr.ID, Status: "awaiting_confirmation", ExpiresAt: pr.ExpiresAt,
		Message: "a confirmation link was emailed to the organiser; nothing is sent to the players before it is used"})
}

// request is the service's request of a create body.
func (b *createBody) request(c echo.Context) (play.CreateGame, error) {
	if b.Game == "" {
		return play.CreateGame{}, events.FieldErrorf(events.CodeInvalid, "game", "game: give the game's name")
	}
	if b.Organiser == nil {
		return play.CreateGame{}, events.FieldErrorf(events.CodeInvalid, "organiser",
			`organiser: give {"name": ..., "email": ...}: the organiser confirms the game by email`)
	}
	turn, err := parseDuration("turn_deadline", b.TurnDeadline)
	if err != nil {
		return play.CreateGame{}, err
	}
	rem, err := parseDuration("reminder_before", b.ReminderBefore)
	if err != nil {
		return play.CreateGame{}, err
	}
	muster, err := parseDuration("muster", b.Muster)
	if err != nil {
		return play.CreateGame{}, err
	}
	req := play.CreateGame{Game: b.Game, Language: b.Language, Options: b.Options, TurnDeadline: turn,
		ReminderBefore: rem, TimeoutPolicy: b.TimeoutPolicy, AwayPolicy: b.AwayPolicy, RequestID: requestID(c),
		Muster: muster, MusterDefault: b.MusterDefault,
		Organiser: play.Organiser{Name: b.Organiser.Name, Email: b.Organiser.Email}}
	for _, p := range b.Players {
		req.Players = append(req.Players, play.NewPlayer{Name: p.Name, Email: p.Email, Bot: p.Bot, Language: p.Language})
	}
	return req, nil
}

// getGame: GET /api/v1/games/:id.
func (s *Server) getGame(c echo.Context) error {
	sm, err := s.svc.Summary(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sm)
}

// getView: GET /api/v1/games/:id/view.
func (s *Server) getView(c echo.Context) error {
	v, err := s.svc.View(c.Request().Context(), c.Param("id"), bearer(c))
	if err != nil {
		return err
	}
	return s.jsonView(c, v)
}

// jsonView writes v as c.JSON does (indented under ?pretty or debug),
// with its Content-Length: play.View.AppendJSON's bytes and a newline, in
// a pooled buffer (a view is several kilobytes).
func (s *Server) jsonView(c echo.Context, v *play.View) error {
	if _, pretty := c.QueryParams()["pretty"]; pretty || c.Echo().Debug {
		return c.JSON(http.StatusOK, v)
	}
	return writeView(c, v, "\n")
}

// writeView answers 200 with v's JSON (play.View.AppendJSON) followed by
// end, written into a buffer of viewBuffers.
func writeView(c echo.Context, v *play.View, end string) error {
	buf := viewBuffers.Get().(*[]byte)
	defer putViewBuffer(buf)
	b, err := v.AppendJSON((*buf)[:0])
	if err != nil {
		return err
	}
	*buf = append(b, end...)
	return jsonBlob(c, *buf)
}

// viewBuffers holds writeView's buffers.
var viewBuffers = sync.Pool{New: func() any { return new([]byte) }}

// putViewBuffer returns buf to viewBuffers, unless an unusual view made it
// large.
func putViewBuffer(buf *[]byte) {
	if cap(*buf) > 1<<20 {
		return
	}
	viewBuffers.Put(buf)
}

// jsonBlob answers 200 with b, JSON, with its Content-Length: a view is
// larger than net/http's buffer and would otherwise be sent chunked, in
// more writes.
func jsonBlob(c echo.Context, b []byte) error {
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	return c.JSONBlob(http.StatusOK, b)
}

type moveBody struct {
	Version *int64          `json:"version"`
	Move    json.RawMessage `json:"move"`
	ID      string          `json:"id"`
}

// postMove: POST /api/v1/games/:id/moves.
func (s *Server) postMove(c echo.Context) error {
	ctx := c.Request().Context()
	id, token := c.Param("id"), bearer(c)
	if token == "" {
		return events.Errorf(events.CodeUnauthorized, "give the token of your play link as Authorization: Bearer TOKEN")
	}
	var b moveBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Version == nil {
		return events.Errorf(events.CodeInvalid, "version: give the version of the view you played from")
	}
	if len(b.Move) == 0 || b.Move[0] != '{' {
		return events.Errorf(events.CodeInvalid, "move: give one of your legal moves, as a JSON object")
	}
	v, err := s.svc.Move(ctx, id, token, play.MoveRequest{Version: *b.Version, Move: play.PostedMove(b.Move), Key: b.ID,
		RequestID: requestID(c)})
	if err != nil {
		return err
	}
	return answerView(c, v)
}

// answerView writes the view a move or a take-back answers, as the
// service encoded it for a keyed move, else encoded here
// (play.View.AppendJSON).
func answerView(c echo.Context, v *play.View) error {
	return writeView(c, v, "")
}

// getHistory: GET /api/v1/games/:id/history.
func (s *Server) getHistory(c echo.Context) error {
	h, err := s.svc.History(c.Request().Context(), c.Param("id"), bearer(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h)
}

// getAudit: GET /api/v1/games/:id/audit.
func (s *Server) getAudit(c echo.Context) error {
	a, err := s.svc.Audit(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}
