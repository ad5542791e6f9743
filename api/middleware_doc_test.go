package api

import (
	"os"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// TestMiddlewareChainIsTrue reads the table of docs/ARCHITECTURE.md's "##
// The middleware chain" (one row a middleware, outermost first, its
// function in the first cell) and checks it against the middleware echo
// has registered for a Server, with Config.HSTS and without it (then
// without the rows that say "only with `Config.HSTS`"), and that echo has
// no pre-routing middleware.
func TestMiddlewareChainIsTrue(t *testing.T) {
	t.Parallel()
	rows := documentedChain(t)
	var withoutHSTS []string
	for _, r := range rows {
		if !strings.Contains(r.what, "only with `Config.HSTS`") {
			withoutHSTS = append(withoutHSTS, r.name)
		}
	}
	var all []string
	for _, r := range rows {
		all = append(all, r.name)
	}
	for _, tc := range []struct {
		hsts bool
		want []string
	}{{true, all}, {false, withoutHSTS}} {
		s := New(Config{Service: nil, HSTS: tc.hsts, Metrics: prometheus.NewRegistry()})
		got := registeredMiddleware(t, s.Echo(), "middleware")
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("HSTS %v: echo runs\n  %s\nbut docs/ARCHITECTURE.md lists\n  %s", tc.hsts, strings.Join(got, " "), strings.Join(tc.want, " "))
		}
		if pre := registeredMiddleware(t, s.Echo(), "premiddleware"); len(pre) != 0 {
			t.Errorf("echo has pre-routing middleware the chain does not list: %v", pre)
		}
	}
}

// chainRow is a row of the documented chain.
type chainRow struct{ name, what string }

// documentedChain reads the table of the "## The middleware chain"
// section of docs/ARCHITECTURE.md.
func documentedChain(t *testing.T) []chainRow {
	t.Helper()
	b, err := os.ReadFile("../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## The middleware chain\n")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "## The middleware chain" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []chainRow
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(line, "| `") {
			continue
		}
		rows = append(rows, chainRow{name: lastName(strings.Trim(strings.TrimSpace(cells[1]), "`")), what: cells[2]})
	}
	if len(rows) < 5 {
		t.Fatalf("the middleware table has %d rows", len(rows))
	}
	return rows
}

// lastName is the last identifier of a function's name, without the
// closure's or method value's suffix: the compiler names an inlined
// closure after its caller ("api.(*Server).middleware.textGuard.func1"),
// so only the function that made it is stable.
func lastName(name string) string {
	name = closureSuffix.ReplaceAllString(name, "")
	return name[strings.LastIndex(name, ".")+1:]
}

// closureSuffix matches what the compiler appends to the name of a
// closure or a method value ("RequestIDWithConfig.func1", "observe-fm").
var closureSuffix = regexp.MustCompile(`(\.func\d+)+$|-fm$`)

// registeredMiddleware names the middleware of echo's field (middleware
// or premiddleware) by the function that made it ("GzipWithConfig",
// "ready", "textGuard"). echo keeps them unexported; a func value's code
// pointer is readable.
func registeredMiddleware(t *testing.T, e *echo.Echo, field string) []string {
	t.Helper()
	f := reflect.ValueOf(e).Elem().FieldByName(field)
	if !f.IsValid() || f.Kind() != reflect.Slice {
		t.Fatalf("echo.Echo has no slice field %q: did echo change?", field)
	}
	var names []string
	for i := range f.Len() {
		name := runtime.FuncForPC(f.Index(i).Pointer()).Name()
		names = append(names, lastName(name))
	}
	return names
}
