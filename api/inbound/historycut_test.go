package inbound_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
)

// TestRestoreCutsHistory is issue #44's point-in-time restore, on a real
// database: the test database is dumped (pg_dump) while a game stands at
// version N, play goes on by email (the worker logs each email's version
// in the head log, as serve does), and the dump is restored over the
// database (pg_restore --clean): the game is back at N, its later moves
// and their outbox rows gone, while the players hold emails of later
// versions. A reply to one of those is answered that the server was
// restored and the game went back (not "the game has moved on"), and
// nothing is played; at serve's start (play.Service.TellHistoryCut with
// the head log's version) every seat gets a notice in its own language
// (English, French, Italian) that names version N and links to the play
// page; a second start tells no one again.
func TestRestoreCutsHistory(t *testing.T) {
	pgtest.SkipOnCitus(t, "restores a pg_dump of its database (docs/operating.md's restore)")
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	g, err := e.svc.Create(ctx, play.CreateGame{Game: lords.Name, Language: "en", Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org", Language: "fr"},
			{Name: "Cat", Email: "cat@example.org", Language: "it"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := g.ID
	e.inbox()
	playOne := func() {
		t.Helper()
		sm, err := e.svc.Summary(ctx, id)
		if err != nil || len(sm.ToMove) == 0 {
			t.Fatalf("no seat to move: %v", err)
		}
		seat := sm.ToMove[0]
		sp, err := e.svc.SeatPage(ctx, id, tokens.Seat(secret, id, seat, 0))
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(sp.View.LegalMoves[0])
		if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: sp.View.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	playOne()
	playOne()
	e.inbox()
	back := e.version(id)
	dbURL := e.pool.Config().ConnString()
	dump := filepath.Join(t.TempDir(), "at-n.dump")
	if out, err := exec.Command("pg_dump", "-Fc", "-f", dump, "-d", dbURL).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	var lost email // the last email listing moves, sent after the dump
	for range 3 {
		playOne()
		for _, m := range e.inbox() {
			if len(m.moves) > 0 && m.replyTo != "" {
				lost = m
			}
		}
	}
	if lost.replyTo == "" {
		t.Fatal("no email listing moves after the dump")
	}
	published := e.heads.Heads()[id]
	if published <= back+2 {
		t.Fatalf("the head log says version %d emailed, the game stood at %d before 3 more moves", published, back)
	}

	// The restore: the dump over the database, as a point-in-time
	// restore to the dump's moment leaves it.
	if out, err := exec.Command("pg_restore", "--clean", "--if-exists", "--single-transaction", "-d", dbURL, dump).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	// serve starts again after a restore: a new service, store and worker
	// on the restored database, the head log read again from its file.
	e.pool.Reset()
	e.heads.Close()
	e = newEnvOn(t, e.pool, e.headsPath)
	if v := e.version(id); v != back {
		t.Fatalf("after the restore the game is at version %d, want %d", v, back)
	}

	cut := map[int]string{0: "restored from a backup", 1: "restauré depuis une sauvegarde", 2: "ripristinato da un backup"}
	movedOn := []string{"has moved on", "a avancé", "è andata avanti"}
	checkAnswer := func(when string) {
		t.Helper()
		e.reply(lost, "lost-"+when+"@client.example.org", "1")
		ans := e.answerTo(lost)
		if !strings.Contains(ans.text, cut[lost.seat]) {
			t.Errorf("%s: the answer to a reply to a lost email does not say the server was restored:\n%s", when, ans.text)
		}
		for _, m := range movedOn {
			if strings.Contains(ans.text, m) {
				t.Errorf("%s: the answer says the game moved on:\n%s", when, ans.text)
			}
		}
	}
	checkAnswer("before the notice")
	if v := e.version(id); v != back {
		t.Fatalf("the reply to a lost email played: version %d, want %d", v, back)
	}

	// serve's start tells the cut (cmd/pbem's tellHistoryCuts, with the
	// head log's versions).
	if heads := e.heads.Heads(); heads[id] != published {
		t.Fatalf("the head log read again says %d, want %d", heads[id], published)
	}
	told, err := e.svc.TellHistoryCut(ctx, id, published)
	if err != nil || !told {
		t.Fatalf("TellHistoryCut: %v, %v", told, err)
	}
	subject := map[int]string{0: "The game went back to an earlier position", 1: "La partie est revenue à une position antérieure",
		2: "La partita è tornata a una posizione precedente"}
	text := map[int]string{0: "the game went back to version " + strconv.FormatInt(back, 10),
		1: "la partie est revenue à la version " + strconv.FormatInt(back, 10), 2: "la partita è tornata alla versione " + strconv.FormatInt(back, 10)}
	got := map[int]int{}
	for _, m := range e.inbox() {
		got[m.seat]++
		if !strings.Contains(m.subject, subject[m.seat]) || !strings.Contains(m.text, text[m.seat]) || !strings.Contains(m.text, "https://pbem.test/play/"+id+"?token=") {
			t.Errorf("seat %d's notice: %q\n%s", m.seat, m.subject, m.text)
		}
	}
	if got[0] != 1 || got[1] != 1 || got[2] != 1 || len(got) != 3 {
		t.Errorf("notices by seat: %v, want one to each of the three", got)
	}
	if told, err := e.svc.TellHistoryCut(ctx, id, published); err != nil || told {
		t.Errorf("a second start told again: %v, %v", told, err)
	}
	if n := len(e.inbox()); n != 0 {
		t.Errorf("a second start sent %d emails", n)
	}
	checkAnswer("after the notice")
}
