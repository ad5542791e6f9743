package lords

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
)

// Golden scenarios: testdata/*.txt. Each file sets up a state, plays moves
// and checks the outcome. The format, one statement a line (# comments):
//
//	players 3            bruce            names Judy Sean Roger
//	round 1   turn 5   step 2   initiative 0
//	hand 0: Scott7 Makgill3        cards are Clan+strength, or #rank
//	army 1: Wemyss11 ~Scott2       ~ face-down; +Cochrane activated power;
//	                               +kept a MacDonnell carried over
//	recruits: Scott2 ~Makgill4 -   (- empty; absent: five face-down cards)
//	supporters: Forsyth3 Scott9    (absent: one per player)
//	claimed 0: Cochrane12
//	discard: Wemyss1
//	draw: Scott1 Scott2            top of the draw pile first; the cards not
//	                               named lie below, lowest rank on top,
//	rest discard                   or go to the discard pile instead,
//	rest claimed 0                 or to a seat's claimed supporters
//
//	play 0 muster Scott7 up        moves: recruit SLOT | muster CARD up|down |
//	                               power yes|no | target SEAT INDEX |
//	                               target CARD | copy SEAT INDEX | claim CARD |
//	                               json {...}
//	fail 1 not_your_turn recruit 0 the move must be rejected with this code
//	expect army 0: Scott7 ~Makgill3          exact, in order
//	expect hand 0: Scott7                    any order
//	expect supporters: ...   expect claimed 0: ...   expect recruits: ...
//	expect discard has Scott7    expect discard lacks Scott7
//	expect points 0 12   expect tomove 1 | none   expect pending activate
//	expect phase claim   expect round 2   expect turn 3   expect initiative 1
//	expect order 2 0 1   (the last round's ranking) expect total 0 22
//	expect legal 0 has power yes     expect legal 0 lacks copy 1 0
//	expect legal 0 count 3
//	expect event recruited reshuffled=true   (an event of the last play)
//	expect noevent round_scored
//	expect describe fr mustered "Ann a engagé une carte face cachée"
//	                               (the last such event, redacted for the public)
//	expect view 1 shows Scott7     expect view 1 hides Scott7
//	expect drawcount 3   expect discardcount 0   expect handcount 0 11
//	expect ranking 1 0 2           expect winner 1     expect over
//	expect cards 96                (cards in the game)
//
// An expect or fail line may end with tags, "@five-turns": the tag of a
// row of doc.go's coverage table, set when the assertion passes. A
// scenario tags a row on the assertion that shows it reached the row's
// situation; TestCoverageTable checks that every scenario a row names
// sets its tag.
//
// Instead of laying out the table, "deal {options}" deals a game with New
// for the given players, with seed 1 or the one of "seed N" (N < 65536).
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	g := newGame(t)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			runScenario(t, g, f)
		})
	}
}

type scenario struct {
	t     *testing.T
	g     *Game
	s     *State
	names []string
	last  []engine.Event
	line  int
	used  map[int]bool
	// reached holds the coverage tags of the assertions that passed.
	reached map[string]bool
}

// runScenario plays the scenario at path and returns the coverage tags
// its assertions set.
func runScenario(t *testing.T, g *Game, path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := &scenario{t: t, g: g, names: []string{"Ann", "Bob", "Cid", "Dan", "Eve"}, reached: map[string]bool{}}
	setup := map[string][]string{}
	var order []string
	sr := bufio.NewScanner(f)
	started := false
	for sr.Scan() {
		sc.line++
		line := strings.TrimSpace(sr.Text())
		// Comments: a line starting with "# ", or the end of a line from " # ".
		if line == "#" || strings.HasPrefix(line, "# ") {
			continue
		}
		if i := strings.Index(line, " # "); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		word := strings.Fields(line)[0]
		switch word {
		case "play", "fail", "expect":
			if !started {
				sc.build(setup, order)
				started = true
			}
			line, tags := cutTags(line)
			if len(tags) > 0 && word == "play" {
				sc.fatalf("a tag needs an assertion (expect or fail), not a play")
			}
			sc.step(line)
			for _, tag := range tags {
				sc.reached[tag] = true
			}
		default:
			if started {
				sc.fatalf("setup line %q after the first move", line)
			}
			key, rest, hasColon := strings.Cut(line, ":")
			if !hasColon || strings.HasPrefix(line, "deal ") {
				key, rest, _ = strings.Cut(line, " ")
			}
			key = strings.Join(strings.Fields(key), " ")
			if key == "names" {
				sc.names = strings.Fields(rest)
				continue
			}
			setup[key] = strings.Fields(rest)
			order = append(order, key)
		}
	}
	if !started {
		sc.fatalf("no moves or expectations")
	}
	return sc.reached
}

// cutTags splits the trailing "@tag" words off a line.
func cutTags(line string) (string, []string) {
	var tags []string
	for {
		line = strings.TrimSpace(line)
		i := strings.LastIndexAny(line, " \t")
		if i < 0 || !strings.HasPrefix(line[i+1:], "@") {
			return line, tags
		}
		tags = append(tags, line[i+2:])
		line = line[:i]
	}
}

func (sc *scenario) fatalf(format string, args ...any) {
	sc.t.Helper()
	sc.t.Fatalf("line %d: %s", sc.line, fmt.Sprintf(format, args...))
}

func (sc *scenario) num(s string) int {
	sc.t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		sc.fatalf("not a number: %q", s)
	}
	return n
}

// rank reads a card name (Scott7, #66) into its rank; for Bruce12 the
// first one not used yet.
func (sc *scenario) rank(tok string) int {
	sc.t.Helper()
	d := sc.g.d
	if strings.HasPrefix(tok, "#") {
		r := sc.num(tok[1:])
		if !d.valid(r) {
			sc.fatalf("no card %s", tok)
		}
		return r
	}
	i := strings.IndexAny(tok, "0123456789")
	if i <= 0 {
		sc.fatalf("bad card %q", tok)
	}
	cl, ok := clanByName(tok[:i])
	str := sc.num(tok[i:])
	if !ok {
		sc.fatalf("bad clan in %q", tok)
	}
	var first int
	for _, r := range d.all {
		if d.clan(r) == cl && d.strength(r) == str {
			if first == 0 {
				first = r
			}
			if sc.used == nil || !sc.used[r] {
				return r
			}
		}
	}
	if first == 0 {
		sc.fatalf("no card %q", tok)
	}
	return first
}

func (sc *scenario) take(tok string) int {
	sc.t.Helper()
	r := sc.rank(tok)
	if sc.used[r] {
		sc.fatalf("card %s placed twice", tok)
	}
	sc.used[r] = true
	return r
}

// follower reads [~]Card[+Power|+kept].
func (sc *scenario) follower(tok string, seat int) Follower {
	sc.t.Helper()
	f := Follower{FaceUp: true, Known: 1 << uint(seat)}
	if strings.HasPrefix(tok, "~") {
		f.FaceUp = false
		tok = tok[1:]
	}
	name, mods, _ := strings.Cut(tok, "+")
	f.Card = sc.take(name)
	for _, m := range strings.Split(mods, "+") {
		switch {
		case m == "":
		case m == "kept":
			f.Kept, f.Power = true, MacDonnell
		default:
			cl, ok := clanByName(m)
			if !ok {
				sc.fatalf("bad power %q", m)
			}
			f.Power = cl
		}
	}
	return f
}

func (sc *scenario) build(setup map[string][]string, order []string) {
	sc.t.Helper()
	n := 2
	if v, ok := setup["players"]; ok {
		n = sc.num(v[0])
	}
	_, bruce := setup["bruce"]
	if opts, ok := setup["deal"]; ok {
		seed := engine.Seed{1}
		if v, ok := setup["seed"]; ok {
			seed = engine.Seed{byte(sc.num(v[0])), byte(sc.num(v[0]) >> 8)}
		}
		st, err := sc.g.New(engine.Setup{Players: n, Options: json.RawMessage(strings.Join(opts, " ")), Seed: seed})
		if err != nil {
			sc.fatalf("deal: %v", err)
		}
		sc.s = st.(*State)
		return
	}
	s := &State{d: sc.g.d, N: n, WithBruce: bruce, rng: *rand.NewChaCha8(engine.Seed{7}),
		Phase: PhasePlay, Round: 1, Turn: 1}
	sc.used = map[int]bool{}
	s.Hands, s.Armies, s.Claimed = make([][]int, n), make([][]Follower, n), make([][]int, n)
	for i := range n {
		s.Hands[i], s.Armies[i], s.Claimed[i] = []int{}, []Follower{}, []int{}
	}
	s.Draw, s.Discard, s.Supporters = []int{}, []int{}, []int{}
	get := func(k string) int {
		if v, ok := setup[k]; ok {
			return sc.num(v[0])
		}
		return -1
	}
	if v := get("round"); v > 0 {
		s.Round = v
	}
	if v := get("turn"); v > 0 {
		s.Turn = v
	}
	if v := get("step"); v >= 0 {
		s.Step = v
	}
	if v := get("initiative"); v >= 0 {
		s.Initiative = v
	}
	var drawTop []int
	restDiscard, restClaimed := false, -1
	recruitsSet, supportersSet := false, false
	for _, k := range order {
		toks := setup[k]
		switch {
		case strings.HasPrefix(k, "hand "):
			seat := sc.num(strings.TrimPrefix(k, "hand "))
			for _, c := range toks {
				s.Hands[seat] = append(s.Hands[seat], sc.take(c))
			}
		case strings.HasPrefix(k, "army "):
			seat := sc.num(strings.TrimPrefix(k, "army "))
			for _, c := range toks {
				s.Armies[seat] = append(s.Armies[seat], sc.follower(c, seat))
			}
		case strings.HasPrefix(k, "claimed "):
			seat := sc.num(strings.TrimPrefix(k, "claimed "))
			for _, c := range toks {
				s.Claimed[seat] = append(s.Claimed[seat], sc.take(c))
			}
		case k == "recruits":
			recruitsSet = true
			for i, c := range toks {
				switch {
				case c == "-":
				case strings.HasPrefix(c, "~"):
					s.Recruits[i] = Recruit{Card: sc.take(c[1:])}
				default:
					s.Recruits[i] = Recruit{Card: sc.take(c), FaceUp: true}
				}
			}
		case k == "supporters":
			supportersSet = true
			for _, c := range toks {
				s.Supporters = append(s.Supporters, sc.take(c))
			}
		case k == "discard":
			for _, c := range toks {
				s.Discard = append(s.Discard, sc.take(c))
			}
		case k == "draw":
			for _, c := range toks {
				drawTop = append(drawTop, sc.take(c))
			}
		case k == "rest":
			restDiscard = len(toks) > 0 && toks[0] == "discard"
			if len(toks) == 2 && toks[0] == "claimed" {
				restClaimed = sc.num(toks[1])
			}
		case k == "players" || k == "bruce" || k == "round" || k == "turn" || k == "step" || k == "initiative":
		default:
			sc.fatalf("unknown setup %q", k)
		}
	}
	var rest []int
	for _, r := range sc.g.d.all {
		if !sc.used[r] && (bruce || sc.g.d.clan(r) != Bruce) {
			rest = append(rest, r)
		}
	}
	pop := func() int { // lowest remaining rank
		r := rest[0]
		rest = rest[1:]
		return r
	}
	if !recruitsSet {
		for i := range s.Recruits {
			s.Recruits[i] = Recruit{Card: pop()}
		}
	}
	if !supportersSet {
		for range n {
			s.Supporters = append(s.Supporters, pop())
		}
	}
	if restDiscard {
		s.Discard = append(s.Discard, rest...)
		rest = nil
	}
	if restClaimed >= 0 {
		s.Claimed[restClaimed] = append(s.Claimed[restClaimed], rest...)
		rest = nil
	}
	// The draw pile's top is its last element: the rest (lowest rank on
	// top), then the named top cards.
	slices.Reverse(rest)
	s.Draw = append(s.Draw, rest...)
	for i := len(drawTop) - 1; i >= 0; i-- {
		s.Draw = append(s.Draw, drawTop[i])
	}
	if err := s.checkCards(); err != nil {
		sc.fatalf("setup: %v", err)
	}
	sc.s = s
}

// move parses a move in the scenario's short form.
func (sc *scenario) move(toks []string) engine.Move {
	sc.t.Helper()
	if len(toks) == 0 {
		sc.fatalf("no move")
	}
	var raw string
	switch toks[0] {
	case "recruit":
		raw = fmt.Sprintf(`{"type":"recruit","slot":%d}`, sc.num(toks[1]))
	case "muster":
		raw = fmt.Sprintf(`{"type":"muster","card":%d,"face_up":%v}`, sc.rank(toks[1]), toks[2] == "up")
	case "power":
		raw = fmt.Sprintf(`{"type":"power","use":%v}`, toks[1] == "yes")
	case "target", "copy":
		if len(toks) == 3 {
			raw = fmt.Sprintf(`{"type":%q,"seat":%d,"index":%d}`, toks[0], sc.num(toks[1]), sc.num(toks[2]))
		} else {
			raw = fmt.Sprintf(`{"type":%q,"card":%d}`, toks[0], sc.rank(toks[1]))
		}
	case "claim":
		raw = fmt.Sprintf(`{"type":"claim","card":%d}`, sc.rank(toks[1]))
	case "json":
		raw = strings.Join(toks[1:], " ")
	default:
		sc.fatalf("unknown move %q", toks[0])
	}
	m, err := sc.g.DecodeMove([]byte(raw))
	if err != nil {
		sc.fatalf("decode %s: %v", raw, err)
	}
	return m
}

func (sc *scenario) step(line string) {
	sc.t.Helper()
	toks := strings.Fields(line)
	switch toks[0] {
	case "play":
		seat := sc.num(toks[1])
		m := sc.move(toks[2:])
		before, _ := json.Marshal(sc.s)
		evs, err := sc.s.Decide(seat, m)
		if err != nil {
			sc.fatalf("%s: %v\nlegal: %s", line, err, mustJSON(sc.s.Legal(seat)))
		}
		if after, _ := json.Marshal(sc.s); string(before) != string(after) {
			sc.fatalf("Decide changed the state")
		}
		for _, e := range evs {
			sc.s.Apply(e)
			if err := sc.s.checkCards(); err != nil {
				sc.fatalf("after %s: %v", e.EventType(), err)
			}
		}
		sc.last = evs
		if testing.Verbose() {
			for _, e := range evs {
				sc.t.Logf("  %s", sc.g.Describe(e, sc.names, "en"))
			}
		}
	case "fail":
		seat := sc.num(toks[1])
		code := toks[2]
		var m engine.Move
		if toks[3] == "json" {
			raw := strings.Join(toks[4:], " ")
			mv, err := sc.g.DecodeMove([]byte(raw))
			if err != nil {
				if re, ok := err.(*engine.RuleError); !ok || re.Code != code {
					sc.fatalf("decode %s: %v, want %s", raw, err, code)
				}
				return
			}
			m = mv
		} else {
			m = sc.move(toks[3:])
		}
		before, _ := json.Marshal(sc.s)
		_, err := sc.s.Decide(seat, m)
		re, ok := err.(*engine.RuleError)
		if !ok || re.Code != code {
			sc.fatalf("%s: got %v, want %s", line, err, code)
		}
		if after, _ := json.Marshal(sc.s); string(before) != string(after) {
			sc.fatalf("rejected move changed the state")
		}
	case "expect":
		sc.expect(line, toks[1:])
	}
}
