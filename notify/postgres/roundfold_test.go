package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/notify"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// TestRoundEndFoldsIntoTheGameOver: a round-end email that has not gone
// out when the game ends is not sent: the game-over email to the seat
// tells its round and its lines (a user trial read the same round in two
// emails arriving together, the round-end email held by the grace and the
// game-over email that tells the last round). Nothing is lost and nothing
// goes twice, whichever of the two is claimed first, across a worker that
// stops between them:
//
//   - the worker records the round-end emails skipped and stops before
//     the game-over emails go out (here the relay refuses them): the next
//     run sends each seat one game-over email, telling every round and
//     line since the seat's last email, the folded round's among them;
//   - the round-end emails wait a retry (the relay refused them) when
//     the game ends: the game-over emails go out first and tell their
//     rounds; the round-end emails, claimed after, are not sent.
//
// Lords of Scotland, 3 players, played at random; the emails until a
// round's end are sent as the game goes, then none until the game's end.
func TestRoundEndFoldsIntoTheGameOver(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	var ahead time.Duration // how far the worker's clock runs ahead of the real one
	e.useWorkerAhead(t, &ahead)
	for i, first := range []string{"game_over", "round_end"} {
		t.Run(first+" refused first", func(t *testing.T) {
			e.t = t
			c := e.create(lords.Name, "en", 3)
			rng := rand.New(rand.NewPCG(46, uint64(i)))
			heard := told{}
			deliver := func() (kinds map[outbox.Kind]int) {
				t.Helper()
				kinds = map[outbox.Kind]int{}
				for _, m := range e.deliver() {
					heard.check(e, c.ID, m, "en")
					kinds[m.Kind]++
				}
				return kinds
			}
			deliver() // the invitations
			// Sent as the game goes, until a round-end email went out.
			for deliver()[outbox.RoundEnd] == 0 {
				if !e.playRandom(c.ID, rng) {
					t.Fatal("the game ended before a round did")
				}
			}
			since := e.version(c.ID)
			// Then a round ends while nothing is sent.
			for !e.roundEndedAfter(c.ID, since) {
				if !e.playRandom(c.ID, rng) {
					t.Fatal("the game ended before a second round did")
				}
			}
			if first == "round_end" {
				e.sink.RefuseNext(1000)
				if got := deliver(); len(got) != 0 {
					t.Fatalf("the relay refused every email, yet %v went out", got)
				}
				e.sink.RefuseNext(0)
			}
			for e.playRandom(c.ID, rng) {
			}
			folded := e.rowsOf(c.ID, outbox.RoundEnd, since)
			if len(folded) < 3 {
				t.Fatalf("round-end emails owed after v%d: %v, want those of a round at least", since, folded)
			}
			if first == "game_over" {
				e.sink.RefuseNext(1000)
				if got := deliver(); len(got) != 0 {
					t.Fatalf("the relay refused every email, yet %v went out", got)
				}
				e.sink.RefuseNext(0)
				for id, st := range e.rowsOf(c.ID, outbox.RoundEnd, since) {
					if st != "skipped: "+notify.StaleOver {
						t.Errorf("round-end email %d, owed before the game's end, is %s", id, st)
					}
				}
				ahead += time.Hour // the game-over emails' retry is due
			}
			// The game-over emails go out, the waiting round-end emails
			// are folded into them (the retry of those the relay refused
			// is not due yet: they are claimed after).
			before := maps.Clone(heard)
			if got := deliver(); got[outbox.GameOver] != 3 || got[outbox.RoundEnd] != 0 {
				t.Fatalf("sent at the game's end: %v, want a game-over email to each seat and no round-end email", got)
			}
			for s := range 3 {
				e.checkRoundsSince(c.ID, s, before[s])
			}
			ahead += time.Hour // every retry is due
			if got := deliver(); len(got) != 0 {
				t.Fatalf("after the game-over emails: %v went out", got)
			}
			for id, st := range e.rowsOf(c.ID, outbox.RoundEnd, since) {
				if st != "skipped: "+notify.StaleOver {
					t.Errorf("round-end email %d, owed before the game's end, is %s", id, st)
				}
			}
		})
	}
}

// version is game id's version now.
func (e *storyEnv) version(id string) int64 {
	e.t.Helper()
	row, _, _ := e.state(id)
	return row.Version
}

// roundEndedAfter reports whether a round of game id ended after version
// from.
func (e *storyEnv) roundEndedAfter(id string, from int64) bool {
	return len(e.roundEnds(id, from)) > 0
}

// roundEnds are the numbers of the rounds of game id (Lords of Scotland)
// that ended after version from.
func (e *storyEnv) roundEnds(id string, from int64) []int {
	e.t.Helper()
	evs, err := e.store.ReadStream(context.Background(), id, from+1)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []int
	for _, ev := range evs {
		if ev.Type == lords.EvRoundEnded {
			var r lords.RoundEnded
			if err := json.Unmarshal(ev.Data, &r); err != nil {
				e.t.Fatal(err)
			}
			out = append(out, r.Round)
		}
	}
	return out
}

// rowsOf is the status of each outbox row of kind of game id about a
// version after from, by id ("skipped: " and the reason for a skipped
// row).
func (e *storyEnv) rowsOf(id string, kind outbox.Kind, from int64) map[int64]string {
	e.t.Helper()
	rows, err := e.pool.Query(context.Background(), `SELECT id, status, coalesce(last_error, '') FROM outbox
		WHERE game_id = $1 AND kind = $2 AND event_version > $3`, id, string(kind), from)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var n int64
		var st, why string
		if err := rows.Scan(&n, &st, &why); err != nil {
			e.t.Fatal(err)
		}
		if st == "skipped" {
			st += ": " + why
		}
		out[n] = st
	}
	return out
}

// checkRoundsSince checks the game-over email seat got (the last email the
// SMTP server received for it): it tells the table of every round ended
// after version heard, that of its last email of a story, and of none
// before (told already).
func (e *storyEnv) checkRoundsSince(id string, seat int, heard int64) {
	e.t.Helper()
	var text string
	for _, r := range e.sink.Messages() {
		if r.To[0] == fmt.Sprintf("p%d@example.org", seat) {
			m, err := smtpsink.Parse(r.Data)
			if err != nil {
				e.t.Fatal(err)
			}
			text = m.Text
		}
	}
	if !strings.Contains(text, "The game of Lords of Scotland") {
		e.t.Fatalf("the last email to seat %d is not its game-over email:\n%s", seat, text)
	}
	ended := e.roundEnds(id, heard)
	all := e.roundEnds(id, 0)
	for _, n := range all {
		title := fmt.Sprintf("\nRound %d:", n)
		if want := slices.Contains(ended, n); strings.Contains(text, title) != want {
			e.t.Errorf("the game-over email to seat %d (last told v%d) tells round %d: %v, want %v:\n%s",
				seat, heard, n, !want, want, text)
		}
	}
	if len(ended) < 2 {
		e.t.Errorf("the game-over email to seat %d tells the rounds %v: want the folded round's and the last", seat, ended)
	}
}
