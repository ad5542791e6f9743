package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"pbem/events/game"
	"pbem/projections"
)

// createPlayer is a player of POST /api/v1/games: a person (name, email)
// or a bot (bot: "easy", "normal" or "strong"; name optional, no email).
type createPlayer struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Bot   string `json:"bot"`
}

type createBody struct {
	Game           string          `json:"game"`
	Language       string          `json:"language"`
	Players        []createPlayer  `json:"players"`
	Options        json.RawMessage `json:"options"`
	TurnDeadline   string          `json:"turn_deadline"`
	ReminderBefore string          `json:"reminder_before"`
	TimeoutPolicy  string          `json:"timeout_policy"`
}

type createdBody struct {
	ID         string          `json:"id"`
	AdminToken string          `json:"admin_token"`
	Seats      []game.SeatName `json:"seats"`
}

// createGame: POST /api/v1/games.
func (s *Server) createGame(c echo.Context) error {
	var b createBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Game == "" {
		return projections.Errorf(projections.EInvalid, "game: give the game's name")
	}
	turn, err := parseDuration("turn_deadline", b.TurnDeadline)
	if err != nil {
		return err
	}
	rem, err := parseDuration("reminder_before", b.ReminderBefore)
	if err != nil {
		return err
	}
	req := game.CreateGame{Game: b.Game, Language: b.Language, Options: b.Options, TurnDeadline: turn,
		ReminderBefore: rem, TimeoutPolicy: b.TimeoutPolicy, RequestID: requestID(c)}
	for _, p := range b.Players {
		req.Players = append(req.Players, game.NewPlayer{Name: p.Name, Email: p.Email, Bot: p.Bot})
	}
	cg, err := s.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	out := createdBody{ID: cg.ID, AdminToken: cg.AdminToken, Seats: []game.SeatName{}}
	for i, n := range cg.Game.Players {
		sn := game.SeatName{Seat: i, Name: n}
		if st := cg.Game.SeatAt(i); st != nil {
			sn.Bot = st.Bot
		}
		out.Seats = append(out.Seats, sn)
	}
	return c.JSON(http.StatusCreated, out)
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
// with its Content-Length.
func (s *Server) jsonView(c echo.Context, v *game.View) error {
	if _, pretty := c.QueryParams()["pretty"]; pretty || c.Echo().Debug {
		return c.JSON(http.StatusOK, v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return jsonBlob(c, append(b, '\n'))
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
		return projections.Errorf(projections.EUnauthorized, "give the token of your play link as Authorization: Bearer TOKEN")
	}
	var b moveBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Version == nil {
		return projections.Errorf(projections.EInvalid, "version: give the version of the view you played from")
	}
	if len(b.Move) == 0 || b.Move[0] != '{' {
		return projections.Errorf(projections.EInvalid, "move: give one of your legal moves, as a JSON object")
	}
	out, err := s.svc.Move(ctx, id, token, game.MoveRequest{Version: *b.Version, Move: b.Move, Key: b.ID,
		RequestID: requestID(c)})
	if err != nil {
		return err
	}
	return jsonBlob(c, out)
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
