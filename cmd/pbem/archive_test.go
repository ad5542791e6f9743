package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/tokens"
	ppg "pbem/projections/postgres"
)

// gameReads is what players and tools read of a game: every seat's view,
// the game's summary, a seat's history and the game's events.
type gameReads struct {
	Views   []*play.View
	Summary *play.Summary
	History *play.History
	Events  []events.Event
}

// TestArchivedGamesReadAsBefore plays a Lords of Scotland game to its end
// by bots and leaves another game active; archiving the games ended 30
// days ago takes none (the Archiver, then `pbem archive` with the default
// PBEM_ARCHIVE_AFTER), `pbem archive -after 0s` the ended game's events
// (all but its first and last), not the active one's; archiving again
// (a fresh archiver, as after a restart) takes none; a fresh service and store
// (nothing cached) then read the same views, summary and events;
// `pbem verify --all` and `pbem rebuild` pass on the archived game.
func TestArchivedGamesReadAsBefore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, pool, games := commandDB(t)
	secret := []byte("a secret of at least thirty-two bytes")
	service := func() (*play.Service, *evpg.Store) {
		store := evpg.New(pool)
		t.Cleanup(store.Close)
		return play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool),
			Records: ppg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret}), store
	}
	svc, store := service()
	var ids []string
	for i := range 2 {
		c, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: "lords-of-scotland",
			Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Robot", Bot: "normal"}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		if i == 1 {
			break // the active game
		}
		botsPlayToEnd(t, ctx, svc, c)
	}
	ended, active := ids[0], ids[1]
	reads := func(svc *play.Service, store *evpg.Store, id string) gameReads {
		t.Helper()
		var r gameReads
		var err error
		for seat := range 2 {
			v, err := playtest.SeatView(ctx, svc, secret, id, seat)
			if err != nil {
				t.Fatalf("view of seat %d of %s: %v", seat, id, err)
			}
			r.Views = append(r.Views, v)
		}
		if r.Summary, err = svc.Summary(ctx, id); err != nil {
			t.Fatal(err)
		}
		if r.History, err = svc.History(ctx, id, tokens.Seat(secret, id, 1, 0)); err != nil {
			t.Fatal(err)
		}
		if r.Events, err = store.ReadStream(ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		return r
	}
	before := map[string]gameReads{ended: reads(svc, store, ended), active: reads(svc, store, active)}
	total := map[string]int{ended: countEvents(t, pool, ended), active: countEvents(t, pool, active)}
	if total[ended] < 50 {
		t.Fatalf("the ended game has %d events", total[ended])
	}

	if n, err := ppg.NewArchiver(store).ArchiveEndedBefore(ctx, time.Now().Add(-720*time.Hour)); err != nil || n != 0 {
		t.Fatalf("archiving the games ended 30 days before today: %d archived, %v", n, err)
	}
	env := map[string]string{"DATABASE_URL": url, "PBEM_SECRET": string(secret), "PBEM_DATA": t.TempDir()}
	pbem := pbemWith(ctx, env)
	if code, out := pbem("archive"); code != 0 || !strings.Contains(out, "games archived: 0 (of those ended before ") {
		t.Fatalf("pbem archive (PBEM_ARCHIVE_AFTER's 720h): %d\n%s", code, out)
	}
	if code, out := pbem("archive", "-after", "3d"); code == 0 || !strings.Contains(out, `unknown unit "d"`) {
		t.Fatalf("pbem archive -after 3d: %d\n%s", code, out)
	}
	if code, out := pbem("archive", "-after", "0s"); code != 0 || !strings.Contains(out, "games archived: 1 (of those ended before ") {
		t.Fatalf("pbem archive -after 0s: %d\n%s", code, out)
	}
	if got := countEvents(t, pool, ended); got != 2 {
		t.Errorf("the ended game keeps %d of its %d events in the table, want its first and last", got, total[ended])
	}
	if got := countEvents(t, pool, active); got != total[active] {
		t.Errorf("the active game has %d events in the table, had %d", got, total[active])
	}
	if n, err := ppg.NewArchiver(store).ArchiveEndedBefore(ctx, time.Now().Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("archiving again: %d archived, %v", n, err)
	}

	fresh, freshStore := service()
	for id, want := range before {
		if got := reads(fresh, freshStore, id); !reflect.DeepEqual(got, want) {
			t.Errorf("game %s reads otherwise once the ended game is archived", id)
		}
	}
	if code, out := pbem("verify", "--all"); code != 0 || !strings.Contains(out, ended) {
		t.Fatalf("verify --all on the archived game: %d\n%s", code, out)
	}
	if code, out := pbem("rebuild", ended); code != 0 {
		t.Fatalf("rebuild of the archived game: %d\n%s", code, out)
	}
	if got := reads(fresh, freshStore, ended); !reflect.DeepEqual(got, before[ended]) {
		t.Error("the archived game reads otherwise after its rebuild")
	}
}

func countEvents(t *testing.T, pool *pgxpool.Pool, stream string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream = $1`, stream).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
