package postgres_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/projections"
	projpg "pbem/projections/postgres"
)

// memSender keeps the messages it is given.
type memSender struct {
	mu   sync.Mutex
	msgs []*notify.Message
}

func (m *memSender) Send(_ context.Context, msgs []*notify.Message) []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msgs...)
	return make([]error, len(msgs))
}

func (m *memSender) take() []*notify.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.msgs
	m.msgs = nil
	return out
}

// lordsNames maps a card's rank to its name as players say it ("Scott 7").
func lordsNames(t *testing.T) map[int]string {
	t.Helper()
	f, err := os.Open("../../engine/lords/deck.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	names := map[int]string{}
	for _, r := range rows[1:] {
		var rank int
		if _, err := fmt.Sscan(r[0], &rank); err != nil {
			t.Fatal(err)
		}
		names[rank] = strings.TrimSpace(r[1]) + " " + strings.TrimSpace(r[2])
	}
	return names
}

// hiddenFrom lists the ranks seat may not know: other seats' hands and
// their face-down followers it has not seen.
func hiddenFrom(st *lords.State, seat int) map[int]bool {
	out := map[int]bool{}
	for s, hand := range st.Hands {
		if s == seat {
			continue
		}
		for _, c := range hand {
			out[c] = true
		}
	}
	for s, army := range st.Armies {
		if s == seat {
			continue
		}
		for _, f := range army {
			if !f.FaceUp && f.Known&(1<<uint(seat)) == 0 {
				out[f.Card] = true
			}
		}
	}
	return out
}

// secretNames are the names whose every card was hidden from seat both
// before and after a move (a card revealed by the move may be named).
func secretNames(names map[int]string, before, after map[int]bool) []string {
	byName := map[string][]int{}
	for r, n := range names {
		byName[n] = append(byName[n], r)
	}
	var out []string
	for n, ranks := range byName {
		all := true
		for _, r := range ranks {
			all = all && before[r] && after[r]
		}
		if all {
			out = append(out, n)
		}
	}
	return out
}

func TestNoEmailRevealsAnotherSeatsHiddenCards(t *testing.T) {
	t.Parallel()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	names := lordsNames(t)
	pool := newPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	repo := projpg.New(pool)
	svc := play.New(play.Config{Games: engine.NewRegistry(g), Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: []byte("secret"),
		Seeds: playtest.Seeds(t.Name())})
	sender := &memSender{}
	w := newWorker(t, pool, workerOpts{sender: sender, batch: 100})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	emails, checked := 0, 0
	for gi, players := range []int{2, 4} {
		req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name, Language: []string{"en", "fr", "it"}[gi%3]}
		for i := range players {
			req.Players = append(req.Players, play.NewPlayer{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
		}
		c, err := svc.Create(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		state := func() *lords.State {
			row, err := repo.Game(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			// The whole state, replayed from the events (the stored one is a snapshot).
			now, _, err := projections.Replay(ctx, engine.NewRegistry(g), store, row)
			if err != nil {
				t.Fatal(err)
			}
			st, err := g.DecodeState(now.Game.State)
			if err != nil {
				t.Fatal(err)
			}
			return st.(*lords.State)
		}
		before := state()
		for moves := 0; before.Result() == nil; moves++ {
			if moves > 2000 {
				t.Fatal("game does not end")
			}
			seat := before.ToMove()[0]
			legal := before.Legal(seat)
			mv, err := json.Marshal(legal[rng.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			row, _ := repo.Game(ctx, c.ID)
			if _, err := svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
				t.Fatalf("move %s: %v", mv, err)
			}
			after := state()
			for {
				n, err := w.RunOnce(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
			}
			for _, m := range sender.take() {
				emails++
				var to int
				fmt.Sscanf(m.To, "p%d@", &to)
				secret := secretNames(names, hiddenFrom(before, to), hiddenFrom(after, to))
				checked += len(secret)
				for _, n := range secret {
					if strings.Contains(m.Text, n+" ") || strings.Contains(m.Text, n+"\n") || strings.Contains(m.Text, n+")") ||
						strings.Contains(m.Text, n+",") || strings.Contains(m.HTML, n+"<") {
						t.Fatalf("email %q to seat %d names %s, hidden from it:\n%s", m.Subject, to, n, m.Text)
					}
				}
				if strings.Contains(m.Text, "seed") && !strings.Contains(m.Text, "/audit") {
					t.Errorf("email mentions the seed: %s", m.Text)
				}
			}
			before = after
		}
	}
	if emails < 20 || checked == 0 {
		t.Fatalf("only %d emails, %d hidden card names checked over whole games", emails, checked)
	}
	t.Logf("%d emails checked against %d hidden card names", emails, checked)
}
