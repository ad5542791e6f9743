package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// profile is the emulated phone: its network and its CPU.
type profile struct {
	latency  time.Duration // added to each request's round trip
	down, up float64       // bytes per second
	cpu      float64       // CPU slowdown factor
	width    int64         // viewport, CSS pixels
	height   int64
}

// slow4G is the phone of the targets: a slow 4G link (150 ms round trip,
// 1.6 Mbit/s each way) and a CPU four times slower than this machine's.
var slow4G = profile{latency: 150 * time.Millisecond, down: 1.6e6 / 8, up: 1.6e6 / 8, cpu: 4, width: 360, height: 740}

func (p profile) String() string {
	return fmt.Sprintf("%d ms round trip, %.1f Mbit/s down, %.1f Mbit/s up, CPU %gx slower, viewport %dx%d",
		p.latency.Milliseconds(), p.down*8/1e6, p.up*8/1e6, p.cpu, p.width, p.height)
}

// startChromium starts a headless chromium and returns its context.
func startChromium(path string) (context.Context, func(), error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("chromium: %w", err)
	}
	dir, err := os.MkdirTemp("", "pbem-page-bench-")
	if err != nil {
		return nil, nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir))
	ctx, cancel := chromedp.NewContext(actx)
	stop := func() { cancel(); cancelAlloc(); _ = os.RemoveAll(dir) }
	if err := chromedp.Do(ctx); err != nil {
		stop()
		return nil, nil, fmt.Errorf("start chromium: %w", err)
	}
	return ctx, stop, nil
}

// networkConditions are the parameters of Network.emulateNetworkConditions,
// which the generated cdproto no longer lists (it is deprecated in favour
// of emulateNetworkConditionsByRule, used when the browser refuses it).
type networkConditions struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

var emulateNetworkConditions = cdp.Command[networkConditions, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

// throttle applies p to the tab: the network (Network.enable first) and
// the CPU, and a phone's viewport.
func throttle(p profile) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		lat := float64(p.latency.Milliseconds())
		if _, err := cdp.Call(ctx, t, emulateNetworkConditions,
			networkConditions{Latency: lat, DownloadThroughput: p.down, UploadThroughput: p.up}); err != nil {
			if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
				MatchedNetworkConditions: []*network.Conditions{{Latency: lat, DownloadThroughput: p.down, UploadThroughput: p.up}},
			}); err != nil {
				return fmt.Errorf("network throttling: %w", err)
			}
		}
		if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: p.cpu}); err != nil {
			return fmt.Errorf("CPU throttling: %w", err)
		}
		_, err := chromedp.EmulateViewport(p.width, p.height, chromedp.EmulateMobile, chromedp.EmulatePortrait,
			chromedp.EmulateScale(2))(ctx, t)
		return err
	})
}

// traffic adds up the bytes the tab received (Network.loadingFinished's
// encodedDataLength: headers and the body as sent, compressed), per URL,
// and the redirects' responses.
type traffic struct {
	mu    sync.Mutex
	urls  map[network.RequestID]string
	bytes map[string]float64
}

// listen starts counting the tab's traffic until ctx ends.
func listen(ctx context.Context, tr *traffic) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(_ context.Context, t *chromedp.Target) error {
		sent := cdp.Events(ctx, t, network.RequestWillBeSent)
		done := cdp.Events(ctx, t, network.LoadingFinished)
		go func() {
			for ev, err := range sent {
				if err != nil {
					return
				}
				tr.mu.Lock()
				if ev.RedirectResponse != nil {
					tr.bytes[ev.RedirectResponse.URL] += ev.RedirectResponse.EncodedDataLength
				}
				tr.urls[ev.RequestID] = ev.Request.URL
				tr.mu.Unlock()
			}
		}()
		go func() {
			for ev, err := range done {
				if err != nil {
					return
				}
				tr.mu.Lock()
				tr.bytes[tr.urls[ev.RequestID]] += ev.EncodedDataLength
				tr.mu.Unlock()
			}
		}()
		return nil
	})
}

// take returns the bytes counted so far, in total and per kind of file,
// and starts again from zero.
func (tr *traffic) take() (total float64, byKind map[string]float64) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	byKind = map[string]float64{}
	for u, n := range tr.bytes {
		total += n
		byKind[kindOf(u)] += n
	}
	tr.bytes = map[string]float64{}
	return total, byKind
}

// kindOf names what a URL is: css, js, or html (pages and redirects).
func kindOf(u string) string {
	switch {
	case strings.Contains(u, "/static/") && strings.HasSuffix(u, ".css"):
		return "css"
	case strings.Contains(u, "/static/") && strings.HasSuffix(u, ".js"):
		return "js"
	case strings.Contains(u, "/play/"):
		return "html"
	}
	return "other"
}

// paint is the timing of the document shown: its first contentful paint
// and load event end (ms from its navigation's start), and that start as
// a wall clock (ms since the epoch).
type paint struct {
	Origin float64 `json:"origin"`
	FCP    float64 `json:"fcp"`
	Load   float64 `json:"load"`
	URL    string  `json:"url"`
}

const paintJS = `(function () {
  var f = performance.getEntriesByName("first-contentful-paint")[0];
  var n = performance.getEntriesByType("navigation")[0];
  if (document.readyState !== "complete" || !f || !n || !n.loadEventEnd) { return ""; }
  return JSON.stringify({origin: performance.timeOrigin, fcp: f.startTime, load: n.loadEventEnd,
    url: location.pathname + location.search});
})()`

// waitPaint polls the tab until a document whose URL contains want is
// loaded and painted, and returns its timing.
func waitPaint(ctx context.Context, want string) (paint, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		s, err := chromedp.Run(c, chromedp.Evaluate[string](paintJS))
		cancel()
		if err == nil && s != "" {
			var p paint
			if err := json.Unmarshal([]byte(s), &p); err != nil {
				return p, err
			}
			if strings.Contains(p.URL, want) {
				return p, nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return paint{}, fmt.Errorf("no painted page at %q within 30 s", want)
}

// chromedpTab opens a tab in a browser context of its own: an empty cache
// and no cookies, as a phone opening the link for the first time.
// The tab lives as long as the context of its first Run, which therefore
// has no time limit.
func chromedpTab(browser context.Context) (context.Context, context.CancelFunc, error) {
	tab, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(tab); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("open a tab: %w", err)
	}
	return tab, cancel, nil
}

// navigate starts loading url (Page.navigate) without waiting: waitPaint
// waits for the page the navigation ends on.
func navigate(url string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: url})
		if err == nil && res.ErrorText != "" {
			err = errors.New(res.ErrorText)
		}
		return err
	})
}

// doWithin runs steps on the tab with a time limit.
func doWithin(tab context.Context, d time.Duration, steps ...chromedp.Action[chromedp.Void]) error {
	c, cancel := context.WithTimeout(tab, d)
	defer cancel()
	return chromedp.Do(c, steps...)
}

// evalWithin evaluates a JavaScript expression on the tab.
func evalWithin[T any](tab context.Context, expr string) (T, error) {
	c, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	return chromedp.Run(c, chromedp.Evaluate[T](expr))
}

// chromiumVersion is the browser's product and version, from its user agent.
func chromiumVersion(browser context.Context) (string, error) {
	tab, cancel, err := chromedpTab(browser)
	if err != nil {
		return "chromium", err
	}
	defer cancel()
	ua, err := evalWithin[string](tab, "navigator.userAgent")
	if err != nil {
		return "chromium", err
	}
	for _, f := range strings.Fields(ua) {
		if strings.HasPrefix(f, "HeadlessChrome/") || strings.HasPrefix(f, "Chrome/") {
			return "chromium " + strings.TrimPrefix(strings.TrimPrefix(f, "Headless"), "Chrome/"), nil
		}
	}
	return "chromium", nil
}

// timelineJS describes the document's loading: when the redirect, the
// page, each file and the first paint ended, in ms from the navigation's
// start (and when the click was, for a move).
const timelineJS = `(function () {
  var n = performance.getEntriesByType("navigation")[0], r = performance.getEntriesByType("resource");
  var f = performance.getEntriesByName("first-contentful-paint")[0], ms = Math.round;
  var t0 = +(sessionStorage.getItem("pbem_bench_t0") || 0), s = "";
  if (t0) { s += "click " + ms(t0 - performance.timeOrigin) + ", "; }
  if (n.redirectEnd) { s += "redirect " + ms(n.redirectEnd) + ", "; }
  s += "page " + ms(n.responseStart) + "-" + ms(n.responseEnd) + " (" + n.transferSize + " B), parsed " + ms(n.domInteractive);
  r.forEach(function (x) {
    if (x.name.indexOf("/events") < 0) {
      s += ", " + x.name.replace(/^.*\//, "") + " " + ms(x.startTime) + "-" + ms(x.responseEnd) + " (" + x.transferSize + " B)";
    }
  });
  return s + ", first paint " + (f ? ms(f.startTime) : "-") + ", load " + ms(n.loadEventEnd);
})()`

// timeline is the tab's document's timeline (timelineJS), or the error.
func timeline(tab context.Context) string {
	s, err := evalWithin[string](tab, timelineJS)
	if err != nil {
		return err.Error()
	}
	return s
}
