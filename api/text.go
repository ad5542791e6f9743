package api

import (
	"bytes"
	"encoding/json"
	"pbem/events"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// Text fields refuse two things PostgreSQL refuses in text and jsonb: the
// NUL character (SQLSTATE 22P05 in jsonb, 22021 in text) and invalid UTF-8
// (22021). Refused here, such input is a 400 naming the field instead of an
// internal error, and never reaches the database.

// badText reports whether s holds a NUL character or invalid UTF-8.
func badText(s string) bool { return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) }

// textError is the events.CodeInvalid error of a field with bad text.
func textError(field string) error {
	return events.Errorf(events.CodeInvalid, "%s: remove the NUL character or invalid UTF-8", field)
}

// checkParams checks the path and query parameters of a request.
func checkParams(c echo.Context) error {
	for i, v := range c.ParamValues() {
		if badText(v) {
			name := "path"
			if i < len(c.ParamNames()) {
				name = c.ParamNames()[i]
			}
			return textError(name)
		}
	}
	return checkValues("query parameter ", c.QueryParams())
}

// checkValues checks the names and values of a query or form.
func checkValues(what string, vs map[string][]string) error {
	for k, vals := range vs {
		if badText(k) {
			return textError(what + strconv.QuoteToASCII(k))
		}
		for _, v := range vals {
			if badText(v) {
				return textError(what + k)
			}
		}
	}
	return nil
}

// checkForm checks a form's fields (and the path and query parameters).
func checkForm(c echo.Context) error {
	if err := checkParams(c); err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		// An unreadable form is refused by the handler's own checks (its
		// fields read as empty); only bad text is this check's business.
		return nil
	}
	return checkValues("", form)
}

// checkJSONText walks a JSON document and returns an error naming the
// first string (key or value) that holds a NUL character (written \u0000)
// or invalid UTF-8, by its path (players[1].name). Malformed JSON passes:
// the decoder reports it.
func checkJSONText(body []byte) error {
	// A NUL reaches a decoded string only as the escape \u0000, and invalid
	// UTF-8 only as itself: a body with neither is clean without a walk
	// (every move's body is).
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u0000`)) {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var path []pathElem
	prev := int64(0)
	for {
		tok, err := d.Token()
		if err != nil {
			return nil
		}
		// The token's bytes (with the separators before it): Token
		// replaces invalid UTF-8 in strings, so look at the source.
		end := d.InputOffset()
		raw := body[prev:end]
		prev = end
		n := len(path)
		if s, ok := tok.(string); ok && n > 0 && !path[n-1].array && !path[n-1].haveKey {
			if badText(s) || !utf8.Valid(raw) {
				return textError(joinPath(pathString(path), "key "+strconv.QuoteToASCII(s)))
			}
			path[n-1].key, path[n-1].haveKey = s, true
			continue
		}
		if dl, ok := tok.(json.Delim); ok && (dl == '}' || dl == ']') {
			path = path[:n-1]
			valueDone(path)
			continue
		}
		// A value starts.
		if n > 0 && path[n-1].array {
			path[n-1].index++
		}
		if dl, ok := tok.(json.Delim); ok {
			path = append(path, pathElem{array: dl == '[', index: -1})
			continue
		}
		if s, ok := tok.(string); ok && (badText(s) || !utf8.Valid(raw)) {
			if p := pathString(path); p != "" {
				return textError(p)
			}
			return textError("body")
		}
		valueDone(path)
	}
}

// pathElem is one level of a JSON path: an object, with the key whose
// value is being read, or an array, with the index of its current element.
type pathElem struct {
	array   bool
	index   int
	key     string
	haveKey bool
}

// valueDone records that the value of the innermost object's key ended.
func valueDone(path []pathElem) {
	if n := len(path); n > 0 && !path[n-1].array {
		path[n-1].haveKey = false
	}
}

// pathString renders path as a.b[2].c.
func pathString(path []pathElem) string {
	var b strings.Builder
	for _, p := range path {
		switch {
		case p.array && p.index >= 0:
			b.WriteString("[" + strconv.Itoa(p.index) + "]")
		case !p.array && p.haveKey:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p.key)
		}
	}
	return b.String()
}

// joinPath renders what under its parent's path.
func joinPath(parent, what string) string {
	if parent == "" {
		return what
	}
	return parent + ": " + what
}
