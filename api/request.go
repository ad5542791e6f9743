package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"pbem/events"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// decode reads a strict JSON body into v: one JSON object, no unknown
// fields, nothing after it, no NUL character or invalid UTF-8 in any
// string. An empty body is allowed when emptyOK. The body's size is
// bounded by the BodyLimit middleware (413).
func decode(c echo.Context, v any, emptyOK bool) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
			return he
		}
		return events.Errorf(events.CodeInvalid, "could not read the request body")
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if emptyOK {
			return nil
		}
		return events.Errorf(events.CodeInvalid, "give a JSON object as the request body")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return events.Errorf(events.CodeInvalid, "malformed JSON body: %s", jsonProblem(err))
	}
	if _, err := d.Token(); err != io.EOF {
		return events.Errorf(events.CodeInvalid, "malformed JSON body: data after the object")
	}
	return nil
}

// jsonProblem describes a decoding error without echoing Go type names.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %q has the wrong type (%s)", te.Field, te.Value)
		}
		return "expected a JSON object"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of the body"
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		return "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
	}
	return "not a valid JSON object"
}

// bearer returns the token of the Authorization header ("" if none).
func bearer(c echo.Context) string {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	const p = "bearer "
	if len(h) > len(p) && strings.EqualFold(h[:len(p)], p) {
		return strings.TrimSpace(h[len(p):])
	}
	return ""
}

// parseDuration reads an optional duration field ("72h", "90m", "3d").
func parseDuration(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err == nil && days > 0 && days <= 366 && fmt.Sprint(days) == n {
			return time.Duration(days) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, events.Errorf(events.CodeInvalid, "%s: give a duration like \"72h\", \"90m\" or \"3d\"", field)
	}
	return d, nil
}
