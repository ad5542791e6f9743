package api_test

import (
	"context"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/events/tokens"
)

// TestPageConfirmSaysTheTurnEnds plays a game of Swords and Bagpipes with
// pseudo-random moves and looks at the play page where it matters: the
// confirmation of a move that cannot be taken back says "it ends your
// turn" exactly when the offer says so (EndsTurn: only of a move that
// reveals nothing, so never of one that draws or turns a card up); a
// move that cannot be taken back but is the seat's only one is played at
// the first tap (no confirmation: there is nothing else to tap by
// mistake).
func TestPageConfirmSaysTheTurnEnds(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 2, "en", "")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 5))
	browsers := map[int]*browser{}
	pageOf := func(seat int) page {
		b, ok := browsers[seat]
		if !ok {
			b = e.browser()
			browsers[seat] = b
			return b.open(id, seat)
		}
		return b.get("/play/" + id)
	}
	var ends, stays, only bool
	for n := 0; n < 600 && !(stays && only); n++ {
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		sp, err := e.svc.SeatPage(ctx, id, tokens.Seat(secret, id, seat, 0))
		if err != nil {
			t.Fatal(err)
		}
		offer, legal := sp.Takeback, sp.View.LegalMoves
		if len(legal) == 1 && offer.Final[0] && !only {
			only = true
			if p := pageOf(seat); strings.Contains(p.Body, "?confirm=ask") {
				t.Errorf("version %d: the seat's only move %s asks for a confirmation", sp.View.Version, legal[0].Label())
			}
		}
		for k := range legal {
			if len(legal) == 1 || !offer.Final[k] || (offer.EndsTurn[k] && ends) || (!offer.EndsTurn[k] && stays) {
				continue
			}
			f := moveForm(t, pageOf(seat).Body)
			mv, err := engine.MarshalMove(legal[k])
			if err != nil {
				t.Fatal(err)
			}
			ask := browsers[seat].post("/play/"+id+"?confirm=ask", url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {string(mv)}})
			said := strings.Contains(ask.Body, "it ends your turn")
			if !strings.Contains(ask.Body, `id="confirm-move"`) {
				t.Fatalf("version %d: no confirmation of %s", sp.View.Version, legal[k].Label())
			}
			if said != offer.EndsTurn[k] {
				t.Errorf("version %d: the confirmation of %s says it ends the turn: %v, want %v", sp.View.Version, legal[k].Label(), said, offer.EndsTurn[k])
			}
			if offer.EndsTurn[k] {
				ends = true
			} else {
				stays = true
			}
		}
		e.playRandomMove(id, seat, rng)
	}
	if !stays || !only {
		t.Fatalf("the game never showed each case: a final move whose confirmation does not say it ends the turn %v, a final only move %v", stays, only)
	}
}
