package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/notify"
)

// awayBody is the request of POST /api/v1/me/away: the day the person is
// back ("2026-12-12"), read in zone (an IANA name or a city, as the zone
// form takes; absent: UTC).
type awayBody struct {
	Until string `json:"until"`
	Zone  string `json:"zone"`
}

// setAway: POST /api/v1/me/away (Authorization: Bearer SESSION) says the
// session's address is away until a day, in each of its games going on
// (docs/playing.md#away); the answer is the away status. 400 for a day
// that does not read, is not after today or is beyond the allowance; 409
// when no game takes the away.
func (s *Server) setAway(c echo.Context) error {
	var b awayBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	loc, err := awayZone(b.Zone)
	if err != nil {
		return err
	}
	st, err := s.svc.AwayFor(c.Request().Context(), bearer(c), b.Until, loc)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// endAway: DELETE /api/v1/me/away: the session's address is back (409
// when it was not away); the answer is the away status.
func (s *Server) endAway(c echo.Context) error {
	st, err := s.svc.BackFor(c.Request().Context(), bearer(c), time.UTC)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// getAway: GET /api/v1/me/away: whether the session's address is away,
// until when, what it does in each game, and the days used and left.
func (s *Server) getAway(c echo.Context) error {
	loc, err := awayZone(c.QueryParam("zone"))
	if err != nil {
		return err
	}
	st, err := s.svc.AwayStatusFor(c.Request().Context(), bearer(c), loc)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// awayZone reads an away's time zone: an IANA name or a city (UTC when
// empty). Errors: events.CodeInvalid.
func awayZone(zone string) (*time.Location, error) {
	zone = strings.TrimSpace(zone)
	if zone == "" {
		return time.UTC, nil
	}
	name, ok := notify.ResolveZone(zone)
	if !ok {
		return nil, events.FieldErrorf(events.CodeInvalid, "zone", "zone: give a time zone such as Europe/Paris, or a city (not %q)", zone)
	}
	loc, err := notify.CheckZone(name)
	if err != nil {
		return nil, events.FieldErrorf(events.CodeInvalid, "zone", "zone: %v", err)
	}
	return loc, nil
}
