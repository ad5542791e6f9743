package play_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
)

// lordsService returns a service playing Lords of Scotland on a fresh
// database, with the given mail grace.
func lordsService(t *testing.T, grace time.Duration) (*play.Service, *currentRepo, events.Store, *pgxpool.Pool) {
	t.Helper()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	return serviceOf(t, grace, g)
}

// serviceOf returns a service playing games on a fresh database, with the
// given mail grace.
func serviceOf(t *testing.T, grace time.Duration, games ...engine.Game) (*play.Service, *currentRepo, events.Store, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.NewPool(t)
	repo := postgres.New(pool)
	store := playtest.NewStore(t, pool)
	reg := engine.NewRegistry(games...)
	svc := play.New(play.Config{Games: reg, Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret, MailGrace: grace})
	return svc, &currentRepo{Repo: repo, store: store, games: reg}, store, pool
}

// currentRepo is the repository as these tests read it: Game's State is
// the game's current engine state, computed from its events (the stored
// one is a snapshot that may lag: projections.SnapshotEvery).
type currentRepo struct {
	*postgres.Repo
	store events.Store
	games engine.Registry
}

func (r *currentRepo) Game(ctx context.Context, id string) (*projections.Game, error) {
	g, err := r.Repo.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	evs, err := r.store.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	_, st, err := pbemevent.StateBefore(r.games, evs, g.Version+1)
	if err != nil {
		return nil, err
	}
	if g.State, err = projections.MarshalState(st); err != nil {
		return nil, err
	}
	return g, nil
}

// outboxOf lists a game's emails of versions from..to, its outbox rows
// and then the your-turn emails its game row owes (pending until the
// worker writes them, migration 0101): status and whether each still
// waits.
func outboxOf(t *testing.T, pool *pgxpool.Pool, id string, from, to int64) (statuses []string, waiting int) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT status, due > now() + interval '30 minutes'
		FROM `+playtest.MailSQL+` m WHERE game_id = $1 AND version BETWEEN $2 AND $3 ORDER BY ord`, id, from, to)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		var w bool
		if err := rows.Scan(&s, &w); err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, s)
		if w {
			waiting++
		}
	}
	return statuses, waiting
}

// TestTakebackRestoresTheState takes back a move that revealed nothing:
// the engine state is the one before the move, its emails (held by the
// mail grace) are cancelled and the take-back sends none, the stream
// holds both the move and the take-back, the history tells the take-back
// in the game's language, and verify and rebuild agree.
func TestTakebackRestoresTheState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, store, pool := lordsService(t, time.Hour)
	id := playtest.CreateLords(t, svc, 3)
	seat, tok, mv := playtest.UntilReversible(t, svc, id)
	before, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: before.Version, Move: play.PostedMove(mv), RequestID: "req-move"}); err != nil {
		t.Fatal(err)
	}
	moved, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	statuses, waiting := outboxOf(t, pool, id, before.Version+1, moved.Version)
	if len(statuses) == 0 || waiting != len(statuses) {
		t.Fatalf("the move's emails %v: %d of them wait for the grace, want all", statuses, waiting)
	}
	sp, err := svc.SeatPage(ctx, id, tok)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Takeback.Version != moved.Version {
		t.Fatalf("the page offers to take back version %d, want %d", sp.Takeback.Version, moved.Version)
	}
	other := tokens.Seat(secret, id, (seat+1)%3, 0)
	if _, err := svc.Takeback(ctx, id, other, play.TakebackRequest{Version: moved.Version}); play.ErrorCode(err) != events.CodeForbidden {
		t.Fatalf("another seat's take-back: %v, want forbidden", err)
	}
	raw, err := svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: moved.Version})
	if err != nil {
		t.Fatal(err)
	}
	after, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := lords.New()
	want, _ := eng.DecodeState(before.State)
	got, _ := eng.DecodeState(after.State)
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Fatalf("state after the take-back differs from the state before the move:\n%s\n%s", gj, wj)
	}
	if after.Version != moved.Version+1 || !equalInts(after.ToMove, before.ToMove) {
		t.Fatalf("after the take-back: version %d to move %v; before the move: version %d to move %v",
			after.Version, after.ToMove, before.Version, before.ToMove)
	}
	if v := raw; v.Version != after.Version || len(v.LegalMoves) == 0 {
		t.Fatalf("answer: version %d with %d legal moves, want version %d and some", v.Version, len(v.LegalMoves), after.Version)
	}
	statuses, _ = outboxOf(t, pool, id, before.Version+1, after.Version)
	for _, s := range statuses {
		if s != "skipped" {
			t.Fatalf("emails of the move and the take-back: %v, want every one skipped", statuses)
		}
	}
	evs, err := store.ReadStream(ctx, id, before.Version+1)
	if err != nil {
		t.Fatal(err)
	}
	if last := evs[len(evs)-1]; last.Type != pbemevent.TypeTakeback || len(evs) != int(after.Version-before.Version) {
		t.Fatalf("stream after the move: %d events, last %s", len(evs), last.Type)
	}
	h, err := svc.History(ctx, id, tok)
	if err != nil {
		t.Fatal(err)
	}
	if line := h.Events[len(h.Events)-1].Summary; !strings.Contains(line, "takes back their move") {
		t.Fatalf("last history line %q", line)
	}
	if err := svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if err := svc.Rebuild(ctx, id); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if string(rebuilt.State) != string(after.State) && !sameState(t, rebuilt.State, after.State) {
		t.Fatal("rebuild gives another state")
	}
	if err := svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify after rebuild: %v", err)
	}
	if _, err := svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: moved.Version}); play.ErrorCode(err) != events.CodeConflict ||
		!strings.Contains(err.Error(), "already taken back") {
		t.Fatalf("a second take-back: %v", err)
	}
	// The seat plays again, and the game goes on from the restored state.
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: after.Version, Move: play.PostedMove(mv)}); err != nil {
		t.Fatalf("the move again after its take-back: %v", err)
	}
	if err := svc.Verify(ctx, id); err != nil {
		t.Fatalf("verify after the move again: %v", err)
	}
}

// TestTakebackRefused checks the 409s: a move that drew a card, a move
// after which another seat acted, a version that is no move.
func TestTakebackRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := lordsService(t, 0)
	id := playtest.CreateLords(t, svc, 2)
	// The first moves of a Lords game are recruits: the place is refilled
	// from the pile.
	g, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seat := g.ToMove[0]
	tok := tokens.Seat(secret, id, seat, 0)
	v, err := svc.View(ctx, id, tok)
	if err != nil {
		t.Fatal(err)
	}
	var recruit json.RawMessage
	for _, m := range v.LegalMoves {
		b, _ := json.Marshal(m)
		if strings.Contains(string(b), `"type":"recruit"`) {
			recruit = b
			break
		}
	}
	if recruit == nil {
		t.Fatalf("no recruit among %d moves", len(v.LegalMoves))
	}
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(recruit)}); err != nil {
		t.Fatal(err)
	}
	g, _ = repo.Game(ctx, id)
	_, err = svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: g.Version})
	if play.ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), "revealed something") {
		t.Fatalf("take-back of a recruit: %v", err)
	}
	if _, err := svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: 1}); play.ErrorCode(err) != events.CodeConflict ||
		!strings.Contains(err.Error(), "not a move") {
		t.Fatalf("take-back of version 1: %v", err)
	}
	if _, err := svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: 0}); play.ErrorCode(err) != events.CodeInvalid {
		t.Fatalf("take-back of version 0: %v", err)
	}
	if _, err := svc.Takeback(ctx, id, "not-a-token", play.TakebackRequest{Version: g.Version}); play.ErrorCode(err) != events.CodeUnauthorized {
		t.Fatalf("take-back with a bad token: %v", err)
	}

	id = playtest.CreateLords(t, svc, 3)
	seat, tok, mv := playtest.UntilReversible(t, svc, id)
	g, _ = repo.Game(ctx, id)
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv)}); err != nil {
		t.Fatal(err)
	}
	mine, _ := repo.Game(ctx, id)
	if err := svc.Chat(ctx, id, tokens.Seat(secret, id, (seat+1)%3, 0), "nice move", ""); err != nil {
		t.Fatal(err)
	}
	next := mine.ToMove[0]
	if next == seat {
		t.Fatal("the reversible move kept the turn")
	}
	ntok := tokens.Seat(secret, id, next, 0)
	nv, err := svc.View(ctx, id, ntok)
	if err != nil {
		t.Fatal(err)
	}
	nmv, _ := json.Marshal(nv.LegalMoves[0])
	if _, err := svc.Move(ctx, id, ntok, play.MoveRequest{Version: nv.Version, Move: play.PostedMove(nmv)}); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: mine.Version})
	if play.ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), "no longer be taken back") {
		t.Fatalf("take-back after another seat moved: %v", err)
	}
}

// TestTakebackRace races a take-back against the next player's move over
// real PostgreSQL: exactly one of them wins, every time.
func TestTakebackRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := lordsService(t, 0)
	wins := map[string]int{}
	defer func() { t.Logf("winners: %v", wins) }()
	for round := range 8 {
		id := playtest.CreateLords(t, svc, 2)
		seat, tok, mv := playtest.UntilReversible(t, svc, id)
		g, _ := repo.Game(ctx, id)
		if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
		moved, _ := repo.Game(ctx, id)
		next := moved.ToMove[0]
		if next == seat {
			t.Fatal("the reversible move kept the turn")
		}
		ntok := tokens.Seat(secret, id, next, 0)
		nv, err := svc.View(ctx, id, ntok)
		if err != nil {
			t.Fatal(err)
		}
		nmv, _ := json.Marshal(nv.LegalMoves[0])
		var wg sync.WaitGroup
		var backErr, moveErr error
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, backErr = svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: moved.Version})
		}()
		go func() {
			defer wg.Done()
			<-start
			// Staggered starts, so that either side may win the append.
			time.Sleep(time.Duration(round%4) * time.Millisecond)
			_, moveErr = svc.Move(ctx, id, ntok, play.MoveRequest{Version: nv.Version, Move: play.PostedMove(nmv)})
		}()
		close(start)
		wg.Wait()
		if (backErr == nil) == (moveErr == nil) {
			t.Fatalf("round %d: take-back %v, move %v: want exactly one to win", round, backErr, moveErr)
		}
		if backErr == nil {
			wins["take-back"]++
		} else {
			wins["move"]++
		}
		for _, err := range []error{backErr, moveErr} {
			if err != nil && play.ErrorCode(err) != events.CodeConflict {
				t.Fatalf("round %d: the loser's error %v is not a conflict", round, err)
			}
		}
		final, _ := repo.Game(ctx, id)
		if backErr == nil && (final.Version != moved.Version+1 || !equalInts(final.ToMove, []int{seat})) {
			t.Fatalf("round %d: the take-back won, but the game is at version %d with %v to move", round, final.Version, final.ToMove)
		}
		if moveErr == nil && final.Version <= moved.Version {
			t.Fatalf("round %d: the move won, but the game is at version %d", round, final.Version)
		}
		if err := svc.Verify(ctx, id); err != nil {
			t.Fatalf("round %d: verify: %v", round, err)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameState(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// TestTakebackAfterABotOrATimeout: a bot that moved after the move, or a
// deadline that passed, makes the take-back impossible (409 naming what
// happened).
func TestTakebackAfterABotOrATimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := lordsService(t, 0)
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy"}}}
	c, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// Let the bot play whenever it is its turn, until Ann has a move she
	// could take back.
	var mv json.RawMessage
	tok := tokens.Seat(secret, c.ID, 0, 0)
	for range 300 {
		g, err := repo.Game(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.ToMove[0] == 1 {
			if ok, err := svc.PlayBot(ctx, c.ID, 1); err != nil || !ok {
				t.Fatalf("bot: %v %v", ok, err)
			}
			continue
		}
		sp, err := svc.SeatPage(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		pick := -1
		for i, final := range sp.Takeback.Final {
			if !final {
				pick = i
				break
			}
		}
		m, _ := json.Marshal(sp.View.LegalMoves[max(pick, 0)])
		if pick >= 0 {
			mv = m
			break
		}
		if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(m)}); err != nil {
			t.Fatal(err)
		}
	}
	if mv == nil {
		t.Fatal("no reversible move for Ann")
	}
	g, _ := repo.Game(ctx, c.ID)
	if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv)}); err != nil {
		t.Fatal(err)
	}
	moved, _ := repo.Game(ctx, c.ID)
	if moved.ToMove[0] != 1 {
		t.Fatalf("after Ann's move %v is to move", moved.ToMove)
	}
	if ok, err := svc.PlayBot(ctx, c.ID, 1); err != nil || !ok {
		t.Fatalf("bot: %v %v", ok, err)
	}
	_, err = svc.Takeback(ctx, c.ID, tok, play.TakebackRequest{Version: moved.Version})
	if play.ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), "a bot played") {
		t.Fatalf("take-back after the bot's move: %v", err)
	}

	// A timeout: the deadline passes after the move, the default move is
	// played for the next seat.
	id := playtest.CreateLords(t, svc, 2)
	seat, tok2, mv2 := playtest.UntilReversible(t, svc, id)
	g, _ = repo.Game(ctx, id)
	if _, err := svc.Move(ctx, id, tok2, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv2)}); err != nil {
		t.Fatal(err)
	}
	moved, _ = repo.Game(ctx, id)
	if acted, err := svc.Timeout(ctx, id, time.Now().Add(1000*time.Hour)); err != nil || !acted {
		t.Fatalf("timeout: %v %v", acted, err)
	}
	_, err = svc.Takeback(ctx, id, tok2, play.TakebackRequest{Version: moved.Version})
	if play.ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), "deadline passed") {
		t.Fatalf("take-back of seat %d after a timeout: %v", seat, err)
	}
}

// TestTakebackSwordsAndBagpipes takes back a move of the other game (a
// replenishment, a relocation, the end of a turn...): the engine state is
// the one before it, the history tells it in French, verify and rebuild
// agree.
func TestTakebackSwordsAndBagpipes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := serviceOf(t, time.Hour, bagpipes.Game{})
	c, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: bagpipes.Name,
		Language: "fr", Players: []play.NewPlayer{{Name: "Anne", Email: "anne@example.org"}, {Name: "Bruno", Email: "bruno@example.org"},
			{Name: "Chloé", Email: "chloe@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // three moves in a row, each taken back
		_, tok, mv := playtest.UntilReversible(t, svc, c.ID)
		before, _ := repo.Game(ctx, c.ID)
		raw, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: before.Version, Move: play.PostedMove(mv)})
		if err != nil {
			t.Fatal(err)
		}
		v := raw
		if _, err := svc.Takeback(ctx, c.ID, tok, play.TakebackRequest{Version: v.Version}); err != nil {
			t.Fatalf("take-back of %s: %v", mv, err)
		}
		after, _ := repo.Game(ctx, c.ID)
		if !sameState(t, before.State, after.State) || !equalInts(before.ToMove, after.ToMove) {
			t.Fatalf("after taking back %s the state differs: to move %v, was %v\n%s\n%s", mv, after.ToMove, before.ToMove, after.State, before.State)
		}
		h, err := svc.History(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		if line := h.Events[len(h.Events)-1].Summary; !strings.Contains(line, "reprend son coup") {
			t.Fatalf("last history line %q", line)
		}
		// Played again for real, so that the next round moves on.
		if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: after.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify: %v", err)
	}
	live, _ := repo.Game(ctx, c.ID)
	if err := svc.Rebuild(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := repo.Game(ctx, c.ID)
	if !sameState(t, live.State, rebuilt.State) || live.Version != rebuilt.Version {
		t.Fatal("rebuild gives another game")
	}
	if err := svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify after rebuild: %v", err)
	}
}

// TestTakebackKeyedMove: a keyed move taken back is not answered again by
// its key (that answer no longer stands): a retry is a conflict asking
// for a new id, and a new id plays.
func TestTakebackKeyedMove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := lordsService(t, 0)
	id := playtest.CreateLords(t, svc, 2)
	_, tok, mv := playtest.UntilReversible(t, svc, id)
	g, _ := repo.Game(ctx, id)
	raw, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv), Key: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	v := raw
	if again, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv), Key: "k1"}); err != nil || string(viewJSON(t, again)) != string(viewJSON(t, raw)) {
		t.Fatalf("a retry before the take-back: %v", err)
	}
	if _, err := svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: v.Version}); err != nil {
		t.Fatal(err)
	}
	back, _ := repo.Game(ctx, id)
	_, err = svc.Move(ctx, id, tok, play.MoveRequest{Version: back.Version, Move: play.PostedMove(mv), Key: "k1"})
	if play.ErrorCode(err) != events.CodeConflict || !strings.Contains(err.Error(), "was taken back") {
		t.Fatalf("the same id after the take-back: %v", err)
	}
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: back.Version, Move: play.PostedMove(mv), Key: "k2"}); err != nil {
		t.Fatalf("a new id after the take-back: %v", err)
	}
	if err := svc.Verify(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// TestTakebackCatchUp: "Since your last turn" of the other seat tells a
// move and its take-back, and the view it compares with at a version after
// the take-back is dealt without the taken-back move (the state before it).
func TestTakebackCatchUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, _ := lordsService(t, 0)
	id := playtest.CreateLords(t, svc, 2)
	seat, tok, mv := playtest.UntilReversible(t, svc, id)
	other := tokens.Seat(secret, id, 1-seat, 0)
	g, _ := repo.Game(ctx, id)
	if _, err := svc.SeatCatchUp(ctx, id, other, g.Version, -1); err != nil { // the other seat looks
		t.Fatal(err)
	}
	v, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: g.Version, Move: play.PostedMove(mv)})
	if err != nil {
		t.Fatal(err)
	}
	if v, err = svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: v.Version}); err != nil {
		t.Fatal(err)
	}
	first, err := svc.SeatCatchUp(ctx, id, other, v.Version, -1) // it looks again
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range first.Lines {
		texts = append(texts, l.Text)
	}
	if all := strings.Join(texts, " | "); first.From != g.Version || len(first.Lines) < 2 || !strings.Contains(all, "takes back their move") {
		t.Fatalf("catch-up from %d (want %d): %s", first.From, g.Version, all)
	}
	if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
		t.Fatal(err)
	}
	now, _ := repo.Game(ctx, id)
	second, err := svc.SeatCatchUp(ctx, id, other, now.Version, -1)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(first.Before)    // the view before the move
	restored, _ := json.Marshal(second.Before) // the view after its take-back
	if second.From != v.Version || string(before) != string(restored) {
		t.Fatalf("the view at version %d (after the take-back) is\n%s\nwant the one before the move\n%s", second.From, restored, before)
	}
}

// viewJSON is v as the JSON API answers it.
func viewJSON(t *testing.T, v *play.View) []byte {
	t.Helper()
	b, err := v.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
