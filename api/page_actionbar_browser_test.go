package api_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// barControl is the control the action bar shows after a tap, as the page
// places it.
type barControl struct {
	ID     string  `json:"id"`
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
}

// pendingControl finds the confirmation, the take-back or the "played"
// line of the action bar and its bounding box ("" when there is none).
// A seat whose turn is several moves (Swords and Bagpipes) has a take-back
// before its next tap: the tests mark the bar they tapped under. The move
// that ends the game leaves no bar (its region is empty): the page is
// shown from its top, and the control is the notice that says the move
// was played (id "ended").
const pendingControl = `(function () {
  var el = document.querySelector("#action-bar #confirm-move, #action-bar #takeback, #action-bar #bar-played");
  var ended = document.querySelector("#action-bar:not(.actionbar)") && document.getElementById("rematch") &&
    document.querySelector("#live-notices .notice");
  var id = el ? el.id : "ended";
  el = el || ended;
  if (!el) { return ""; }
  var r = el.getBoundingClientRect();
  return JSON.stringify({id: id, top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: innerWidth, h: innerHeight});
})()`

// waitControl waits for a new action bar (not the one marked before the
// tap) with a pending control other than not, and returns the control.
func waitControl(t *testing.T, tb context.Context, what, not string) barControl {
	t.Helper()
	var c barControl
	var got string
	within(t, tb, 20*time.Second, what, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		got, err = chromedp.Poll[string](`(function () {
  var bar = document.getElementById("action-bar"), s = `+pendingControl+`;
  return bar && !bar.dataset.old && s !== "" && JSON.parse(s).id !== "`+not+`" ? s : false;
})()`, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(10*time.Millisecond))(ctx, tg)
		return err
	}))
	if err := json.Unmarshal([]byte(got), &c); err != nil {
		t.Fatalf("%s: %v in %q", what, err, got)
	}
	return c
}

// inViewport fails t unless c's box is inside the viewport.
func inViewport(t *testing.T, c barControl, what string) {
	t.Helper()
	if c.Top < 0 || c.Left < 0 || c.Bottom > c.H || c.Right > c.W || c.Bottom-c.Top < 1 {
		t.Errorf("%s: #%s at top %.0f bottom %.0f left %.0f right %.0f, outside the %.0fx%.0f viewport",
			what, c.ID, c.Top, c.Bottom, c.Left, c.Right, c.W, c.H)
	}
}

// viewportShot saves what the screen shows (not the whole page).
func viewportShot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(dir+"/"+name, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// confirmInViewport taps the action bar's confirmation when c, the control
// a tap brought, is one, and checks that the take-back or "played" line
// that follows is inside the viewport. It reports whether c asked.
func confirmInViewport(t *testing.T, tb context.Context, c barControl, tap string) bool {
	t.Helper()
	if c.ID != "confirm-move" {
		return false
	}
	within(t, tb, 20*time.Second, "confirm "+tap,
		chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("confirm-move").click()`))
	c = waitControl(t, tb, "after the confirmation of "+tap, "confirm-move")
	inViewport(t, c, "after the confirmation of "+tap)
	return true
}
