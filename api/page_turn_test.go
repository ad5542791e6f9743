package api_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pbem/api"
	"pbem/engine/bagpipes"
	"pbem/events/play"
	"pbem/events/play/playtest"
)

// TestSimultaneousChoiceStatusLine (a user trial read "Your turn. Waiting
// for Bernard." during the secret side choice, where every seat chooses
// at once): a seat awaited together with others is told it chooses at
// the same time as them, with no "Waiting for"; once it has chosen, it
// is told whom the game waits for, and no longer "Your turn".
func TestSimultaneousChoiceStatusLine(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	T := func(key string, args ...any) string { return api.PageCatalog.T("en", key, args...) }
	id := e.createGame(bagpipes.Name, 3, "en", "")
	seat := e.playUntil(id, 5, 400, func(v *play.View) bool { return len(v.ToMove) > 1 && slices.Contains(v.ToMove, v.Seat) })
	turn := func() string {
		body := htmlUnescape(e.browser().open(id, seat).Body)
		_, after, _ := strings.Cut(body, `id="turn">`)
		line, _, _ := strings.Cut(after, "</p>")
		return line
	}
	sm, err := e.svc.Summary(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var others []string
	for _, s := range sm.ToMove {
		if s != seat {
			others = append(others, sm.Seats[s].Name)
		}
	}
	if got, want := turn(), T("play.your_turn_at_once", strings.Join(others, ", ")); got != want {
		t.Errorf("before choosing, the status line is %q, want %q", got, want)
	}
	v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
	if err != nil {
		t.Fatal(err)
	}
	mv, err := json.Marshal(v.LegalMoves[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
		t.Fatal(err)
	}
	after, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(after.ToMove, seat) || len(after.ToMove) != len(others) {
		t.Fatalf("after its choice, the game awaits %v", after.ToMove)
	}
	if got, want := turn(), T("play.waiting", strings.Join(others, ", ")); got != want {
		t.Errorf("after choosing, the status line is %q, want %q", got, want)
	}
}
