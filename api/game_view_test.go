package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
)

// TestJSONViewAsCJSON: jsonView answers the bytes, status and content type
// c.JSON answers for the same view, pretty included.
func TestJSONViewAsCJSON(t *testing.T) {
	t.Parallel()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(engine.Setup{Players: 3, Seed: engine.Seed{3}, Names: []string{"A<n>", "B&b", "C\"c"}, Language: "it"})
	if err != nil {
		t.Fatal(err)
	}
	v := &play.View{GameID: "g1", Seat: 1, Version: 4, Status: "active", ToMove: st.ToMove(),
		LegalMoves: st.Legal(1), State: st.View(1)}
	e := echo.New()
	for _, target := range []string{"/view", "/view?pretty"} {
		rec := func(write func(echo.Context) error) *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			if err := write(e.NewContext(httptest.NewRequest(http.MethodGet, target, nil), w)); err != nil {
				t.Fatal(err)
			}
			return w
		}
		want := rec(func(c echo.Context) error { return c.JSON(http.StatusOK, v) })
		// Twice: the second view is encoded into a reused buffer.
		rec(func(c echo.Context) error { return New(Config{}).jsonView(c, v) })
		got := rec(func(c echo.Context) error { return New(Config{}).jsonView(c, v) })
		if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") ||
			got.Body.String() != want.Body.String() {
			t.Fatalf("%s: jsonView %d %q %s\nc.JSON %d %q %s", target, got.Code, got.Header().Get("Content-Type"), got.Body,
				want.Code, want.Header().Get("Content-Type"), want.Body)
		}
	}
}
