// Command page measures the play page as a phone on a slow 4G link gets
// it, in chromium driven through the DevTools protocol (chromedp): the
// network throttled to 150 ms round trip and 1.6 Mbit/s each way
// (Network.emulateNetworkConditions) and the CPU slowed down four times
// (Emulation.setCPUThrottlingRate).
//
//	go run ./bench/page [-pbem bin/pbem] [-runs 5] [-moves 12]
//
// It creates a scratch database on the PostgreSQL server pbem would use
// (DATABASE_URL, else 127.0.0.1:5432, else a private cluster in
// PBEM_DATA; dropped at the end), creates a four-player game of each game
// there, starts `pbem serve` (the binary given by -pbem) on a loopback
// port, plays -moves moves through the REST API so that the page has a
// history (and something happened since the viewer's last turn), then,
// -runs times per game, in a fresh browser context (cold cache, no
// cookies):
//
//   - opens the play link of the seat to move, as from its email (the
//     token is swapped for a cookie by a redirect), and reports the bytes
//     transferred (Network.loadingFinished's encodedDataLength: headers
//     and compressed bodies of the redirect, the page, its CSS and script)
//     and the first contentful paint (performance.getEntriesByType("paint"));
//   - presses the page's first move button and reports the time from the
//     click to the updated page's first contentful paint (and load end),
//     and the bytes that took.
//
// The medians over the runs are checked against the targets of issue 18:
// first view ≤ 20 KB, first contentful paint ≤ 0.8 s, a move's round trip
// ≤ 400 ms; the exit status is 1 if one is missed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/network"

	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/postgres/pgtest"
)

// The targets (issue 18, item 5).
const (
	targetBytes = 20_000
	targetFCP   = 800 * time.Millisecond
	targetMove  = 400 * time.Millisecond
)

func main() {
	pbem := flag.String("pbem", "bin/pbem", "the pbem binary to serve with (make build writes it)")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the chromium binary")
	runs := flag.Int("runs", 5, "measurements per game (each in a fresh browser context)")
	moves := flag.Int("moves", 12, "moves played in each game before the first measurement")
	verbose := flag.Bool("v", false, "show the server's log")
	showTimings := flag.Bool("timings", false, "show each page's timeline (navigation and resource timing)")
	flag.Float64Var(&slow4G.cpu, "cpu", slow4G.cpu, "CPU slowdown factor (1: none; on a busy machine the default 4 multiplies its load)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx, *pbem, *chromium, *runs, *moves, *verbose, *showTimings, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "page:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// measure is one run's figures.
type measure struct {
	viewBytes float64
	viewKinds map[string]float64
	fcp, load time.Duration
	moveFCP   time.Duration // the click to the updated page drawn (move.go)
	moveLoad  time.Duration
	moveBytes float64
	moveHow   string // swap or navigation, and "to confirm" for a first tap
}

func run(ctx context.Context, pbem, chromium string, runs, moves int, verbose, showTimings bool, out io.Writer) (bool, error) {
	var timings io.Writer
	if showTimings {
		timings = out
	}
	// The server is the one `pbem db exec` names (the Makefile runs this
	// so), or DATABASE_URL, or 127.0.0.1:5432: see pgtest.AdminURL.
	dbURL, drop, err := pgtest.Scratch(ctx, pgtest.AdminURL(), "pbem_page_", true)
	if err != nil {
		return false, err
	}
	defer drop() //nolint:errcheck // a database left behind is named pbem_page_*
	secret := []byte("page benchmark secret, not a real one")
	names := []string{lords.Name, bagpipes.Name}
	ids, err := createGames(ctx, dbURL, secret, names)
	if err != nil {
		return false, err
	}
	dataDir, err := os.MkdirTemp("", "pbem-page-data-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dataDir)
	logTo := io.Discard
	if verbose {
		logTo = os.Stderr
	}
	srv, err := startServer(ctx, pbem, dbURL, secret, dataDir, logTo)
	if err != nil {
		return false, err
	}
	defer srv.stop()
	browser, stopBrowser, err := startChromium(chromium)
	if err != nil {
		return false, err
	}
	defer stopBrowser()
	version, _ := chromiumVersion(browser)
	fmt.Fprintf(out, "page bench: %s; %s; %d runs per game, medians (worst)\n", version, slow4G, runs)
	rng := rand.New(rand.NewPCG(18, 5))
	pick := func(n int) int { return rng.IntN(n) }
	ok := true
	for i, id := range ids {
		if err := srv.play(ctx, id, moves, pick); err != nil {
			return false, fmt.Errorf("%s: %w", names[i], err)
		}
		var results []measure
		if timings != nil {
			fmt.Fprintf(timings, "%s timelines (ms from the navigation's start):\n", names[i])
		}
		for range runs {
			m, err := measureOnce(ctx, browser, srv, id, timings)
			if err != nil {
				return false, fmt.Errorf("%s: %w", names[i], err)
			}
			results = append(results, m)
			// The others play until the game waits again for someone who
			// has moved before (a different seat, most often).
			if err := srv.play(ctx, id, 1+rng.IntN(3), pick); err != nil {
				return false, fmt.Errorf("%s: %w", names[i], err)
			}
		}
		ok = report(out, names[i], results) && ok
	}
	fmt.Fprintf(out, "targets: first view ≤ %d bytes, first contentful paint ≤ %d ms, move round trip ≤ %d ms\n",
		targetBytes, targetFCP.Milliseconds(), targetMove.Milliseconds())
	return ok, nil
}

// measureOnce opens the play link of the seat to move in a fresh browser
// context, then plays that seat's first move button.
// With timings set, it writes each page's timeline there.
func measureOnce(ctx context.Context, browser context.Context, srv *server, id string, timings io.Writer) (measure, error) {
	var m measure
	seat, err := srv.toMove(ctx, id)
	if err != nil {
		return m, err
	}
	if seat < 0 {
		return m, fmt.Errorf("game %s is over: use fewer -moves or -runs", id)
	}
	tab, cancel, err := chromedpTab(browser)
	if err != nil {
		return m, err
	}
	defer cancel()
	tr := &traffic{urls: map[network.RequestID]string{}, bytes: map[string]float64{}}
	lctx, stopListening := context.WithCancel(tab)
	defer stopListening()
	if err := doWithin(tab, 20*time.Second, throttle(slow4G), listen(lctx, tr)); err != nil {
		return m, fmt.Errorf("throttle: %w", err)
	}
	if err := doWithin(tab, 60*time.Second, navigate(srv.playLink(id, seat))); err != nil {
		return m, fmt.Errorf("open the play link: %w", err)
	}
	p, err := waitPaint(tab, "/play/"+id)
	if err != nil {
		return m, err
	}
	time.Sleep(500 * time.Millisecond) // the live stream connects; late requests finish
	if timings != nil {
		fmt.Fprintf(timings, "  first view: %s\n", timeline(tab))
	}
	m.viewBytes, m.viewKinds = tr.take()
	m.fcp, m.load = ms(p.FCP), ms(p.Load)
	clicked, err := evalWithin[bool](tab, clickMoveJS)
	if err != nil || !clicked {
		return m, fmt.Errorf("no move button on the page of seat %d (%v)", seat, err)
	}
	mv, err := waitMoved(tab)
	if err != nil {
		return m, err
	}
	switch {
	case strings.HasSuffix(mv.URL, "?n=played"):
		m.moveHow = mv.How
	case strings.HasSuffix(mv.URL, "?confirm=ask"):
		m.moveHow = mv.How + " to confirm"
	default:
		return m, fmt.Errorf("the move of seat %d was not played: the page is at %s", seat, mv.URL)
	}
	time.Sleep(300 * time.Millisecond)
	if timings != nil {
		fmt.Fprintf(timings, "  move:       %s\n", moveTimeline(tab, mv))
	}
	m.moveBytes, _ = tr.take()
	m.moveFCP, m.moveLoad = ms(mv.Drawn), ms(mv.Load)
	return m, nil
}

// how says how the moves' pages came: by a swap, a navigation, or both.
func how(results []measure) string {
	var ways []string
	for _, m := range results {
		if !slices.Contains(ways, m.moveHow) {
			ways = append(ways, m.moveHow)
		}
	}
	return strings.Join(ways, ", ")
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// report prints a game's figures and says whether its medians meet the
// targets.
func report(out io.Writer, name string, results []measure) bool {
	pick := func(f func(measure) float64) (med, worst float64) {
		var xs []float64
		for _, m := range results {
			xs = append(xs, f(m))
		}
		slices.Sort(xs)
		return xs[len(xs)/2], xs[len(xs)-1]
	}
	bytes, bytesW := pick(func(m measure) float64 { return m.viewBytes })
	html, _ := pick(func(m measure) float64 { return m.viewKinds["html"] })
	css, _ := pick(func(m measure) float64 { return m.viewKinds["css"] })
	js, _ := pick(func(m measure) float64 { return m.viewKinds["js"] })
	fcp, fcpW := pick(func(m measure) float64 { return float64(m.fcp) })
	load, _ := pick(func(m measure) float64 { return float64(m.load) })
	mv, mvW := pick(func(m measure) float64 { return float64(m.moveFCP) })
	mvLoad, _ := pick(func(m measure) float64 { return float64(m.moveLoad) })
	mvBytes, _ := pick(func(m measure) float64 { return m.moveBytes })
	d := func(f float64) string { return fmt.Sprintf("%d ms", time.Duration(f).Milliseconds()) }
	fmt.Fprintf(out, "%s\n", name)
	fmt.Fprintf(out, "  first view:      %6.0f bytes (%.0f); page %.0f, CSS %.0f, script %.0f\n", bytes, bytesW, html, css, js)
	fmt.Fprintf(out, "  first paint:     %s (%s); load %s\n", d(fcp), d(fcpW), d(load))
	fmt.Fprintf(out, "  move round trip: %s (%s) to the updated page drawn (%s); load %s; %.0f bytes\n", d(mv), d(mvW), how(results), d(mvLoad), mvBytes)
	var missed []string
	if bytes > targetBytes {
		missed = append(missed, "first view bytes")
	}
	if time.Duration(fcp) > targetFCP {
		missed = append(missed, "first contentful paint")
	}
	if time.Duration(mv) > targetMove {
		missed = append(missed, "move round trip")
	}
	if len(missed) > 0 {
		fmt.Fprintf(out, "  MISSED: %s\n", strings.Join(missed, ", "))
		return false
	}
	return true
}
