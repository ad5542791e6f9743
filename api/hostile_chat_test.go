package api_test

import (
	"net/http"
	"net/url"
	"sync"
	"testing"

	"pbem/projections/testgame"
)

// TestHostileSimultaneousChatUnderTheLimit: 40 table-talk lines sent at
// once by 4 seats (10 each, half their hourly limit) are all accepted and
// all kept; they race each other for the game's version, which is no
// reason to refuse one as "over the limit".
func TestHostileSimultaneousChatUnderTheLimit(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(testgame.Name, 4, "en", `{"target":25}`)
	const seats, each = 4, 10
	type seatPage struct {
		b    *browser
		csrf string
	}
	var pages []seatPage
	for s := range seats {
		b := e.browser()
		pages = append(pages, seatPage{b, moveForm(t, b.open(id, s).Body).csrf})
	}
	v := e.version(id)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var refused []string
	for s := range seats {
		for i := range each {
			wg.Go(func() {
				resp, err := pages[s].b.c.PostForm(e.url+"/play/"+id+"/chat",
					url.Values{"csrf": {pages[s].csrf}, "text": {"line " + string(rune('a'+i))}})
				if err != nil {
					mu.Lock()
					refused = append(refused, err.Error())
					mu.Unlock()
					return
				}
				resp.Body.Close()
				loc := resp.Header.Get("Location")
				u, err := url.Parse(loc)
				if resp.StatusCode != http.StatusSeeOther || err != nil || u.Query().Get("n") != "chat" {
					mu.Lock()
					refused = append(refused, resp.Status+" "+loc)
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(refused) > 0 {
		t.Errorf("%d of %d lines refused: %v", len(refused), seats*each, refused)
	}
	if got := e.version(id) - v; got != seats*each {
		t.Errorf("%d lines kept, want %d", got, seats*each)
	}
}
