package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestPagePanicIsAnHTMLPage: a page handler's panic is recovered by the
// server's one middleware chain (there is no second Recover in
// pages.wrap) and answered as the pages' internal error page, with the
// pages' security headers, and the server goes on.
func TestPagePanicIsAnHTMLPage(t *testing.T) {
	t.Parallel()
	srv := New(Config{Logger: slog.New(slog.DiscardHandler), Pages: &PageConfig{Logger: slog.New(slog.DiscardHandler)}})
	srv.Echo().GET("/boom", srv.pages.wrap(func(echo.Context) error { panic("a secret detail") }))
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for i := 0; i < 2; i++ {
		resp, err := http.Get(hs.URL + "/boom")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusInternalServerError || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
			resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(string(body), "<html") || strings.Contains(string(body), "secret detail") {
			t.Fatalf("page panic %d: %d %q %q\n%s", i, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("X-Frame-Options"), body)
		}
	}
}
