package lords

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pbem/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/games/*.json from fresh random games")

// recordedGame is a complete game kept as a regression test: its setup, the
// moves as posted, and what the end must be. A change of the rules that
// alters it needs a new RulesVersion.
type recordedGame struct {
	Players int               `json:"players"`
	Options json.RawMessage   `json:"options"`
	Seed    string            `json:"seed"`
	Moves   []json.RawMessage `json:"moves,omitempty"` // {"seat":N,"move":{...}}
	Rounds  int               `json:"rounds"`
	Result  *engine.Result    `json:"result"`
	Events  int               `json:"events"`
	Digest  string            `json:"state_sha256"`
}

type postedMove struct {
	Seat int             `json:"seat"`
	Move json.RawMessage `json:"move"`
}

func TestRecordedGames(t *testing.T) {
	g := newGame(t)
	if *update {
		for i, su := range []engine.Setup{
			{Players: 2, Options: json.RawMessage(`{}`), Seed: seedOf(1001)},
			{Players: 4, Options: json.RawMessage(`{"bruce":true}`), Seed: seedOf(1002)},
			{Players: 5, Options: json.RawMessage(`{"bruce":false}`), Seed: seedOf(1003)},
		} {
			rec := record(t, g, su, uint64(i))
			if err := os.WriteFile(fmt.Sprintf("testdata/games/game%d.json", i+1), formatRecord(rec), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob("testdata/games/*.json")
	if len(files) == 0 {
		t.Fatal("no recorded games")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var rec recordedGame
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			got := replay(t, g, rec)
			if mustJSON(got.Result) != mustJSON(rec.Result) || got.Rounds != rec.Rounds || got.Events != rec.Events || got.Digest != rec.Digest {
				t.Fatalf("replay differs:\ngot  %s %d rounds %d events %s\nwant %s %d rounds %d events %s",
					mustJSON(got.Result), got.Rounds, got.Events, got.Digest, mustJSON(rec.Result), rec.Rounds, rec.Events, rec.Digest)
			}
		})
	}
}

// formatRecord writes a recorded game with one move a line.
func formatRecord(rec recordedGame) []byte {
	moves := rec.Moves
	rec.Moves = nil
	head, _ := json.MarshalIndent(rec, "", " ")
	var b strings.Builder
	b.Write(head[:len(head)-2]) // without the closing "\n}"
	b.WriteString(",\n \"moves\": [\n")
	for i, m := range moves {
		b.WriteString("  ")
		b.Write(m)
		if i < len(moves)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(" ]\n}\n")
	return []byte(b.String())
}

func record(t *testing.T, g *Game, su engine.Setup, k uint64) recordedGame {
	st, err := g.New(su)
	if err != nil {
		t.Fatal(err)
	}
	rec := recordedGame{Players: su.Players, Options: su.Options, Seed: hex.EncodeToString(su.Seed[:])}
	r := rand.New(rand.NewPCG(k, 77))
	s := st.(*State)
	for s.Final == nil {
		seat := s.awaited()
		l := s.Legal(seat)
		m := l[r.IntN(len(l))]
		rec.Moves = append(rec.Moves, json.RawMessage(mustJSON(postedMove{Seat: seat, Move: json.RawMessage(mustJSON(m))})))
		evs, err := s.Decide(seat, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			s.Apply(e)
		}
	}
	out := replay(t, g, rec)
	rec.Result, rec.Rounds, rec.Events, rec.Digest = out.Result, out.Rounds, out.Events, out.Digest
	return rec
}

// replay posts the recorded moves through DecodeMove and Decide.
func replay(t *testing.T, g *Game, rec recordedGame) recordedGame {
	t.Helper()
	var su engine.Setup
	su.Players, su.Options = rec.Players, rec.Options
	seed, err := hex.DecodeString(rec.Seed)
	if err != nil || len(seed) != len(su.Seed) {
		t.Fatalf("bad seed %q", rec.Seed)
	}
	copy(su.Seed[:], seed)
	st, err := g.New(su)
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for i, raw := range rec.Moves {
		var pm postedMove
		if err := json.Unmarshal(raw, &pm); err != nil {
			t.Fatal(err)
		}
		m, err := g.DecodeMove(pm.Move)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		evs, err := st.Decide(pm.Seat, m)
		if err != nil {
			t.Fatalf("move %d %s: %v", i, pm.Move, err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
		events += len(evs)
	}
	s := st.(*State)
	sum := sha256.Sum256([]byte(mustJSON(s)))
	return recordedGame{Result: s.Final, Rounds: s.Round, Events: events, Digest: hex.EncodeToString(sum[:])}
}
