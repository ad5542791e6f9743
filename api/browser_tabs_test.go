package api_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// The browser tests' tabs are used again. Opening a tab (a target in a
// browser context of its own, with its window and renderer) costs
// chromium about 0.7 CPU second, and about 1.4 with twenty tabs open,
// where loading a page in an open tab costs about 0.15 (20 tabs opened
// against 20 pages loaded in one tab, each run in a cgroup of its own,
// load 5 to 9). The tests open a tab for every seat, size and language,
// so that make test's two browser tracks spent more CPU in chromium than
// in any other program. A tab the test is done with (its cleanup) is
// cleared and kept, and the next test that asks for a tab takes it.
//
// Clearing leaves nothing a test could see: the page's storage
// (sessionStorage, localStorage) is emptied and the tab goes to
// about:blank, which ends its scripts and live streams; its browser
// context's cookies and the HTTP cache are cleared and the time zone
// override is lifted. The viewport, and whether the tab is a phone (touch,
// mobile), are set again by tab for every test. A test that changes a
// tab in any other way (network interception, scripts added to every
// document, script execution turned off, extra headers) opens it with
// ownTab, which closes it at the end instead.

// tabPool holds the package chromium's tabs that tests opened with tab: the
// cleared ones waiting for a test (idle) and those tests hold (lent, by
// their context, for release).
var tabPool = struct {
	sync.Mutex
	idle []pooledTab
	lent map[context.Context]pooledTab
}{lent: map[context.Context]pooledTab{}}

// pooledTab is an open tab and the function that closes it.
type pooledTab struct {
	ctx   context.Context
	close context.CancelFunc
}

// tab returns a tab in a browser context of its own (its own cookies),
// with the given viewport: a cleared one that an earlier test gave back,
// else a new one. The test's cleanup clears it and gives it back, unless
// the test gave it back before (release).
func tab(t *testing.T, root context.Context, w, h int64, mobile bool) context.Context {
	t.Helper()
	tabPool.Lock()
	var pt pooledTab
	if n := len(tabPool.idle); n > 0 {
		pt, tabPool.idle = tabPool.idle[n-1], tabPool.idle[:n-1]
	} else {
		pt.ctx, pt.close = chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	}
	tabPool.lent[pt.ctx] = pt
	tabPool.Unlock()
	t.Cleanup(func() { release(pt.ctx) })
	setViewport(t, pt.ctx, w, h, mobile)
	return pt.ctx
}

// release gives tab tb back before the end of its test, for a test that
// opens a tab for each size or language in turn and is done with each
// before the next (the cleanup then has nothing left to do).
func release(tb context.Context) {
	tabPool.Lock()
	pt, ok := tabPool.lent[tb]
	delete(tabPool.lent, tb)
	tabPool.Unlock()
	if ok {
		giveBack(pt)
	}
}

// ownTab is tab for a test that changes the tab beyond what giveBack
// clears: the tab is new, and closed at the end of the test.
func ownTab(t *testing.T, root context.Context, w, h int64, mobile bool) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	setViewport(t, ctx, w, h, mobile)
	return ctx
}

// setViewport sets a tab's size, and for a phone its touch screen, mobile
// layout, portrait orientation and device pixel ratio of 2.
func setViewport(t *testing.T, ctx context.Context, w, h int64, mobile bool) {
	t.Helper()
	var opts []chromedp.EmulateViewportOption
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulatePortrait, chromedp.EmulateScale(2))
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, opts...)); err != nil {
		t.Fatal(err)
	}
}

// giveBack clears a tab and keeps it for the next test, or closes it
// when it cannot be cleared (a page that does not answer, a closed tab).
func giveBack(pt pooledTab) {
	c, cancel := context.WithTimeout(pt.ctx, 10*time.Second)
	defer cancel()
	err := chromedp.Do(c,
		chromedp.Evaluate[chromedp.Void](`try { sessionStorage.clear(); localStorage.clear(); } catch (e) {}`),
		chromedp.Navigate("about:blank"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.ClearBrowserCache, cdp.Empty{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: ""})
			return err
		}))
	if err == nil {
		cc := chromedp.FromContext(pt.ctx)
		_, err = cdp.Call(c, cc.Browser, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: cc.BrowserContextID})
	}
	if err != nil || pt.ctx.Err() != nil {
		pt.close()
		return
	}
	tabPool.Lock()
	tabPool.idle = append(tabPool.idle, pt)
	tabPool.Unlock()
}
