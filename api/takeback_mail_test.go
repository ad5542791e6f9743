package api_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/postgres"
)

// TestTakebackSendsNoEmail runs the real outbox worker against a real
// SMTP server: the emails of a move wait for the mail grace, a move taken
// back within it sends none, ever; the same move not taken back sends its
// email once the grace has passed.
func TestTakebackSendsNoEmail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	games := engine.NewRegistry(lg)
	svc := play.New(play.Config{Games: games, Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
		MailGrace: time.Minute, Seeds: playtest.Seeds(t.Name())})
	sink, sender := startSink(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: "http://pbem.test"})
	if err != nil {
		t.Fatal(err)
	}
	var ahead time.Duration // the worker's clock runs this far ahead of the real one
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool).WithTurns(notifypg.Histories{Games: games, Events: store}),
		Sender: sender, Renderer: r, Now: func() time.Time { return time.Now().Add(ahead) }})
	if err != nil {
		t.Fatal(err)
	}
	run := func(at time.Duration) int {
		t.Helper()
		ahead = at
		n, err := w.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	cg, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	// Play until the seat to move has a move it could take back.
	var seat int
	var mv json.RawMessage
	var version int64
	for found := false; !found; {
		sm, err := svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat = sm.ToMove[0]
		sp, err := svc.SeatPage(ctx, id, tokens.Seat(secret, id, seat, 0))
		if err != nil {
			t.Fatal(err)
		}
		pick := 0
		for i, final := range sp.Takeback.Final {
			if !final {
				pick, found = i, true
				break
			}
		}
		mv, _ = json.Marshal(sp.View.LegalMoves[pick])
		version = sp.View.Version
		if !found {
			if _, err := svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: version, Move: play.PostedMove(mv)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if run(0) != 2 {
		t.Fatal("the invitations were not sent at once")
	}
	run(2 * time.Minute) // the setup moves' emails, after their grace
	sent := len(sink.Messages())

	tok := tokens.Seat(secret, id, seat, 0)
	versionOf := func(view *play.View, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return view.Version
	}
	moved := versionOf(svc.Move(ctx, id, tok, play.MoveRequest{Version: version, Move: play.PostedMove(mv)}))
	if n := run(0); n != 0 {
		t.Fatalf("the worker sent %d emails of the move during its grace", n)
	}
	back := versionOf(svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: moved}))
	if n := run(10 * time.Minute); n != 0 {
		t.Fatalf("the worker sent %d emails of a move taken back", n)
	}
	// RunOnce sends synchronously: what it sent has arrived.
	if got := len(sink.Messages()); got != sent {
		t.Fatalf("the SMTP server received %d emails after the take-back, want none", got-sent)
	}

	// The same move, kept: its email goes once the grace has passed.
	versionOf(svc.Move(ctx, id, tok, play.MoveRequest{Version: back, Move: play.PostedMove(mv)}))
	if n := run(0); n != 0 {
		t.Fatalf("the worker sent %d emails during the grace", n)
	}
	n := run(2 * time.Minute)
	if n == 0 {
		t.Fatal("the move's emails were never sent")
	}
	got := sink.Wait(sent+n, 5*time.Second)
	for _, m := range got[sent:] {
		if len(m.To) != 1 || m.To[0] == "" {
			t.Fatalf("email to %v", m.To)
		}
	}
	t.Logf("%d emails after the grace, to %v", n, got[sent].To)
}
