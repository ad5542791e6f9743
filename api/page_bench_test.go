package api_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/tokens"
)

// BenchmarkPlayPage renders a mid-game Lords of Scotland play page (4
// players) through the whole handler stack, reading the game from a real
// database: the server's time to answer GET /play/{game}. It reports the
// median (p50-ms), the 95th percentile (p95-ms) and the page's size.
func BenchmarkPlayPage(b *testing.B) {
	e := newPageEnv(b)
	id := e.createGame(lords.Name, 4, "fr", "")
	e.playToEnd(id, 5, 30)
	seat := e.toMove(id)
	if seat < 0 {
		b.Fatal("the game ended too soon")
	}
	ck := &http.Cookie{Name: "pbem_seat", Value: tokens.Seat(secret, id, seat, 0)}
	var size int
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "/play/"+id, nil)
		req.AddCookie(ck)
		w := httptest.NewRecorder()
		start := time.Now()
		e.srv.ServeHTTP(w, req)
		times = append(times, time.Since(start))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
		size = w.Body.Len()
	}
	b.StopTimer()
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
	b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
	b.ReportMetric(float64(size), "html-bytes")
}
