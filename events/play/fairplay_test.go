package play_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
)

// Fair play by construction (issue #28): a cheat at seat 0 plays whole
// games of both games, against bots and against people making random
// moves, and before each of its decisions tries to recover every value
// hidden from it the way a cheat would: for each event whose data its
// history redacts, it puts each possible value (every number from 0 to
// 130, every string the game's cards use, true and false) in place of a
// hidden field, hashes the event as the audit says events are hashed,
// with the meta, time, version and previous hash it was shown, and looks
// for the result among everything it was shown (its history, its view,
// the payloads of its emails: every hash or hash prefix in them). To be
// generous to the cheat it keeps the event's other hidden fields at their
// true values, so one field at a time needs guessing. It must recover
// nothing.

// fairplayCase is one game the cheat plays: bots[i] is seat i's bot level
// ("" for a person).
type fairplayCase struct {
	name string
	game string
	bots []string
	seed uint64
}

func TestFairPlayAttacker(t *testing.T) {
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewPool(t)
	// The games' ids and seeds come from a stream the test owns, so that
	// every run deals the same four games and plays them alike (the
	// people's moves come from each case's seed, the bots decide from
	// theirs): a failure is a failure of these games, seen again by
	// running the test again.
	svc := play.New(play.Config{Games: engine.NewRegistry(lg, bagpipes.Game{}), Store: playtest.NewStore(t, pool),
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret, Now: func() time.Time { return time.Now().UTC() },
		Seeds: playtest.Seeds(t.Name())})
	store := playtest.NewStore(t, pool)
	for _, c := range []fairplayCase{
		{"lords/bot", lords.Name, []string{"", "normal"}, 1},
		{"lords/people", lords.Name, []string{"", "", ""}, 2},
		{"bagpipes/bot", bagpipes.Name, []string{"", "strong"}, 3},
		{"bagpipes/people", bagpipes.Name, []string{"", "", ""}, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := playAttacked(t, svc, store, pool, c)
			t.Logf("%d events, %d with data hidden from seat 0, %d guesses hashed, %d hashes and prefixes shown",
				a.events, len(a.hidden), a.guesses, len(a.shown))
			if len(a.hidden) == 0 {
				t.Fatal("no event hid anything from seat 0: the game tested nothing")
			}
			if len(a.found) > 0 {
				t.Errorf("seat 0 recovered %d hidden values, e.g. %s", len(a.found), a.found[0])
			}
			checkAuditOffline(t, svc, a.id)
		})
	}
}

// checkAuditOffline downloads the audit of ended game id as JSON and
// checks it offline (play.CheckAudit, what `pbem verify --audit` runs),
// then flips one byte at a time (in an event's data, its hash, the
// revealed seed and key) and wants each flip reported with the version
// of the event it broke. A server that rewrites an event's hidden card
// and hashes the whole chain again is caught by the replay.
func checkAuditOffline(t *testing.T, svc *play.Service, id string) {
	t.Helper()
	ctx := context.Background()
	a, err := svc.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	games := svcGames(t)
	load := func() *play.Audit {
		var x play.Audit
		if err := json.Unmarshal(raw, &x); err != nil {
			t.Fatal(err)
		}
		return &x
	}
	rep, err := play.CheckAudit(games, load())
	if err != nil {
		t.Fatalf("the audit of a fair game does not check: %v", err)
	}
	if rep.Format != events.FormatCommitted || rep.Events != len(a.Events) || rep.Decisions == 0 {
		t.Fatalf("report %+v for %d events", rep, len(a.Events))
	}
	versionOf := func(err error) int64 {
		var ce *events.ChainError
		var ae *play.AuditError
		switch {
		case errors.As(err, &ce):
			return ce.Version
		case errors.As(err, &ae):
			return ae.Version
		}
		return -1
	}
	flip := func(b []byte) {
		// A digit becomes another digit, a letter another letter: the
		// JSON stays valid, the value changes.
		for i := len(b) / 2; i < len(b); i++ {
			switch c := b[i]; {
			case c >= '0' && c <= '8', c >= 'a' && c <= 'y':
				b[i] = c + 1
				return
			case c == '9' || c == 'z':
				b[i] = c - 1
				return
			}
		}
		b[0] ^= 1
	}
	flips := 0
	for i := range a.Events {
		if i%5 != 0 && i != len(a.Events)-1 {
			continue
		}
		x := load()
		flip(x.Events[i].Data)
		if _, err := play.CheckAudit(games, x); versionOf(err) != x.Events[i].Version {
			t.Errorf("a flipped byte in the data of v%d: %v", x.Events[i].Version, err)
		}
		x = load()
		x.Events[i].Hash[3] ^= 0x10
		if _, err := play.CheckAudit(games, x); versionOf(err) != x.Events[i].Version {
			t.Errorf("a flipped byte in the hash of v%d: %v", x.Events[i].Version, err)
		}
		flips += 2
	}
	for name, f := range map[string]func(x *play.Audit){
		"seed":       func(x *play.Audit) { b := []byte(x.Seed); flip(b); x.Seed = string(b) },
		"commit_key": func(x *play.Audit) { b := []byte(x.CommitKey); flip(b); x.CommitKey = string(b) },
	} {
		x := load()
		f(x)
		if _, err := play.CheckAudit(games, x); versionOf(err) != 1 {
			t.Errorf("a flipped byte in the revealed %s: %v, want version 1 named", name, err)
		}
		flips++
	}
	// The server rewrites an engine event (a card drawn, a choice...; or
	// into data its engine cannot decode) and hashes the chain again with
	// the key: every hash checks, the replay does not, and names the
	// event. (The flip once made a clan "MbcDonnell", which the replay
	// reported as version 1: TestFairPlayAttacker's failure "under load".)
	for _, rewrite := range []func(d json.RawMessage) json.RawMessage{
		func(d json.RawMessage) json.RawMessage { flip(d); return d },
		func(json.RawMessage) json.RawMessage { return json.RawMessage(`[]`) },
	} {
		x := load()
		for i := len(x.Events) / 2; i < len(x.Events); i++ {
			if strings.HasPrefix(x.Events[i].Type, "pbem.") {
				continue
			}
			x.Events[i].Data = rewrite(x.Events[i].Data)
			key := events.CommitKeyFrom([32]byte(mustHex(t, x.Seed)))
			prev := x.Events[i].PrevHash
			for j := i; j < len(x.Events); j++ {
				x.Events[j].PrevHash = prev
				h, err := events.HashEvent(prev, &x.Events[j], &key)
				if err != nil {
					t.Fatal(err)
				}
				x.Events[j].Hash, prev = h, h
			}
			if _, err := play.CheckAudit(games, x); versionOf(err) != x.Events[i].Version {
				t.Errorf("v%d rewritten and the chain hashed again: %v, want v%d named", x.Events[i].Version, err, x.Events[i].Version)
			}
			break
		}
	}
	// Issue #44: the server rewrites the whole record in format 1 (data
	// hashed in clear, no key; a format-1 game shows its players no hash
	// before the end, so nothing they noted would contradict it): every
	// hash checks and every decision replays, but the seed was made for
	// format 2.
	x := load()
	var created map[string]any
	if err := json.Unmarshal(x.Events[0].Data, &created); err != nil {
		t.Fatal(err)
	}
	delete(created, "chain_format")
	if x.Events[0].Data, err = json.Marshal(created); err != nil {
		t.Fatal(err)
	}
	x.ChainFormat, x.CommitKey = events.FormatPlain, ""
	prev := make([]byte, 32)
	for j := range x.Events {
		x.Events[j].PrevHash = prev
		h, err := events.HashEvent(prev, &x.Events[j], nil)
		if err != nil {
			t.Fatal(err)
		}
		x.Events[j].Hash, prev = h, h
	}
	if _, err := play.CheckAudit(games, x); versionOf(err) != 1 || !strings.Contains(err.Error(), "made for chain format 2") {
		t.Errorf("the record rewritten whole in format 1: %v, want version 1 and the seed's format named", err)
	}
	t.Logf("the audit checks offline (%d decisions replayed); %d flipped bytes each reported at their version", rep.Decisions, flips)
}

// svcGames is the registry of the fair-play games.
func svcGames(t *testing.T) engine.Registry {
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	return engine.NewRegistry(lg, bagpipes.Game{})
}

func mustHex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("bad hex seed %q", s)
	}
	return b
}

// attacker is the cheat at seat 0 of one game.
type attacker struct {
	t      *testing.T
	id     string
	shown  map[string]bool // hex hashes and prefixes seat 0 was shown
	tried  map[int64]bool  // versions already attacked
	hidden map[int64]bool  // versions whose data was redacted for seat 0
	// strings are the string values the game's events use (the cheat
	// knows the cards' names).
	strings []string
	guesses int
	events  int
	found   []string
}

// playAttacked plays c to its end, seat 0 attacking before each of its
// decisions and once more before its last.
func playAttacked(t *testing.T, svc *play.Service, store events.Store, pool *pgxpool.Pool, c fairplayCase) *attacker {
	ctx := context.Background()
	names := []string{"Ann", "Bob", "Cid", "Dee"}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: c.game}
	for i, b := range c.bots {
		p := play.NewPlayer{Name: names[i], Bot: b}
		if b == "" {
			p.Email = strings.ToLower(names[i]) + "@example.org"
		}
		req.Players = append(req.Players, p)
	}
	cg, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	a := &attacker{t: t, id: cg.ID, shown: map[string]bool{}, tried: map[int64]bool{}, hidden: map[int64]bool{}}
	rng := rand.New(rand.NewPCG(c.seed, 28))
	token := func(seat int) string { return tokens.Seat(secret, cg.ID, seat, 0) }
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatal("the game does not end")
		}
		v, err := svc.View(ctx, cg.ID, token(0))
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != "active" {
			break
		}
		if slices.Contains(v.ToMove, 0) {
			a.attack(ctx, svc, store, pool, v)
		}
		seat := v.ToMove[rng.IntN(len(v.ToMove))]
		if c.bots[seat] != "" {
			if _, err := svc.PlayBot(ctx, cg.ID, seat); err != nil {
				t.Fatal(err)
			}
			continue
		}
		sv, err := svc.View(ctx, cg.ID, token(seat))
		if err != nil {
			t.Fatal(err)
		}
		mv, err := json.Marshal(sv.LegalMoves[rng.IntN(len(sv.LegalMoves))])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, cg.ID, token(seat), play.MoveRequest{Version: sv.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// hexRun finds hex runs long enough to be a hash or a shown prefix of one.
var hexRun = regexp.MustCompile(`[0-9a-f]{12,}`)

// collect adds every hash and prefix in text to what seat 0 was shown.
func (a *attacker) collect(text []byte) {
	for _, m := range hexRun.FindAll(text, -1) {
		a.shown[string(m)] = true
	}
}

// attack gathers what seat 0 is shown at view v and tries the events it
// has not tried yet.
func (a *attacker) attack(ctx context.Context, svc *play.Service, store events.Store, pool *pgxpool.Pool, v *play.View) {
	t := a.t
	token := tokens.Seat(secret, a.id, 0, 0)
	h, err := svc.History(ctx, a.id, token)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []any{h, v} {
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		a.collect(b)
	}
	// The history JSON carries hashes as base64 ([]byte): add them in hex.
	for _, r := range h.Events {
		a.shown[hex.EncodeToString(r.Hash)] = true
		a.shown[hex.EncodeToString(r.PrevHash)] = true
	}
	rows, err := pool.Query(ctx, `SELECT payload::text FROM outbox WHERE game_id = $1 AND (seat = 0 OR seat IS NULL)`, a.id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		a.collect([]byte(p))
	}
	rows.Close()
	full, err := store.ReadStream(ctx, a.id, 1)
	if err != nil {
		t.Fatal(err)
	}
	a.events = len(full)
	a.strings = stringsOf(full)
	for _, r := range h.Events {
		if a.tried[r.Version] || r.Version > int64(len(full)) {
			continue
		}
		a.tried[r.Version] = true
		e := full[r.Version-1]
		// The creation hides only the 256-bit seed: no cheat enumerates it.
		if e.Type == "pbem.created" || sameData(e.Data, r.Data) {
			continue
		}
		a.hidden[r.Version] = true
		a.tryEvent(e, r.Data, r.PrevHash)
	}
}

// tryEvent puts every possible value in each field of e's data that seat
// 0's copy (shownData) does not show, and looks for the resulting hash.
func (a *attacker) tryEvent(e events.Event, shownData json.RawMessage, prev []byte) {
	var truth, seen any
	if json.Unmarshal(e.Data, &truth) != nil || json.Unmarshal(shownData, &seen) != nil {
		a.t.Fatalf("v%d: data does not decode", e.Version)
	}
	var paths [][]any
	hiddenPaths(truth, seen, nil, &paths)
	for _, p := range paths {
		for _, guess := range a.candidates(get(truth, p)) {
			data, err := json.Marshal(set(truth, p, guess))
			if err != nil {
				a.t.Fatal(err)
			}
			c := e
			c.Data = data
			canon, err := events.Canonical(&c)
			if err != nil {
				a.t.Fatal(err)
			}
			h := hex.EncodeToString(events.ChainHash(prev, canon))
			a.guesses++
			if a.shown[h] || a.shown[h[:12]] {
				a.found = append(a.found, fmt.Sprintf("v%d %s field %v = %v (true value %v)", e.Version, e.Type, p, guess, get(truth, p)))
			}
		}
	}
}

// candidates are the values a cheat tries for a field whose true value
// is like v.
func (a *attacker) candidates(v any) []any {
	switch v.(type) {
	case float64:
		out := make([]any, 0, 131)
		for i := range 131 {
			out = append(out, float64(i))
		}
		return out
	case string:
		out := make([]any, 0, len(a.strings))
		for _, s := range a.strings {
			out = append(out, s)
		}
		return out
	case bool:
		return []any{true, false}
	}
	return nil
}

// hiddenPaths appends the paths of the leaves of truth that seen shows
// otherwise (or not at all).
func hiddenPaths(truth, seen any, at []any, out *[][]any) {
	switch tv := truth.(type) {
	case map[string]any:
		sv, _ := seen.(map[string]any)
		keys := make([]string, 0, len(tv))
		for k := range tv {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			hiddenPaths(tv[k], sv[k], append(slices.Clone(at), k), out)
		}
	case []any:
		sv, _ := seen.([]any)
		for i := range tv {
			var s any
			if i < len(sv) {
				s = sv[i]
			}
			hiddenPaths(tv[i], s, append(slices.Clone(at), i), out)
		}
	default:
		if fmt.Sprint(truth) != fmt.Sprint(seen) {
			*out = append(*out, at)
		}
	}
}

// get is the value at path p of v.
func get(v any, p []any) any {
	for _, k := range p {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// set returns a copy of v with x at path p.
func set(v any, p []any, x any) any {
	if len(p) == 0 {
		return x
	}
	switch k := p[0].(type) {
	case string:
		m := v.(map[string]any)
		c := make(map[string]any, len(m))
		for kk, vv := range m {
			c[kk] = vv
		}
		c[k] = set(m[k], p[1:], x)
		return c
	case int:
		s := slices.Clone(v.([]any))
		s[k] = set(s[k], p[1:], x)
		return s
	}
	return v
}

// sameData reports whether two JSON texts are the same value.
func sameData(a, b []byte) bool {
	ca, err1 := events.CanonicalJSON(a)
	cb, err2 := events.CanonicalJSON(b)
	return err1 == nil && err2 == nil && bytes.Equal(ca, cb)
}

// stringsOf lists the string values the engine events' data use (card
// names, sides...: what the rules tell every player).
func stringsOf(evs []events.Event) []string {
	seen := map[string]bool{"": true}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			seen[v] = true
		}
	}
	for _, e := range evs {
		var v any
		if !strings.HasPrefix(e.Type, "pbem.") && json.Unmarshal(e.Data, &v) == nil {
			walk(v)
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// fixedSeeds gives every game the same id and seed (play.Config.Seeds):
// one game per database.
type fixedSeeds [32]byte

func (f fixedSeeds) Read(p []byte) (int, error) { return copy(p, f[:]), nil }
