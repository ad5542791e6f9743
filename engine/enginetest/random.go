package enginetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"pbem/engine"
)

// Options configures RandomGames. Only Games and Setup are required.
type Options struct {
	// Games is the number of complete games to play.
	Games int
	// Setup returns the setup of the i-th game (its seed should differ).
	Setup func(i int) engine.Setup
	// Seed seeds the choice of moves (the tests' own randomness): game i
	// draws its moves from rand.NewPCG(Seed, i), whatever the Workers and
	// the games before it, so that a failing game reproduces alone.
	Seed uint64
	// MaxMoves fails a game that has not ended after so many moves
	// (default 100000).
	MaxMoves int
	// DeepEvery runs the expensive checks on every DeepEvery-th game
	// (default 20; 1 checks every game deeply).
	DeepEvery int
	// Invariant is a cheap check run after every event of every game
	// (e.g. all cards accounted for).
	Invariant func(st engine.State) error
	// CheckView checks what seat (Spectator included) is shown in deep
	// games: its view's JSON object with its legal moves added as
	// "legal_moves", as the API sends them beside it. Typically: that it
	// holds no card the seat may not see.
	CheckView func(st engine.State, seat int, view []byte) error
	// CheckRedacted checks, in deep games, the JSON of an event redacted for
	// seat, given the states just before and just after the event.
	CheckRedacted func(before, after engine.State, seat int, e engine.Event, redacted []byte) error
	// Workers plays the games on so many goroutines (default 1). The engine
	// and the callbacks must then be safe for concurrent use on distinct
	// states.
	Workers int
	// Bots checks, in deep games at every step, that the easy and normal
	// bots (Game.ChooseBot) pick one of the listed moves from the seat's
	// view and redacted history. (The strong bot is slower: its game's own
	// tests play it.)
	Bots bool
	// Plant returns a copy of st where a hidden card of a seat other than
	// seat is changed (chosen by k), or false when there is none. In deep
	// games, every seat's explanations (State.Explain) must be the same
	// with the planted card as without it. Without Plant, the explanations
	// are only checked for form.
	Plant func(st engine.State, seat, k int) (engine.State, bool)
	// Unlisted returns candidate moves (JSON) that may or may not be legal;
	// those not listed by Legal must be rejected. The default mutates the
	// fields of listed moves.
	Unlisted func(r *rand.Rand, legal []engine.Move) [][]byte
}

// Stats counts what RandomGames did.
type Stats struct {
	Games, Deep   int
	Moves, Events int
	Rejected      int         // unlisted moves rejected
	RoundEnds     int         // events for which Game.RoundEnd answered true
	Reversible    int         // moves Game.Reversible says may be taken back
	Forced        int         // seats' forced steps seen in deep games (State.Forced)
	LongestGame   int         // in moves
	Winners       map[int]int // games won, by seat of the winner
	// Explained counts the explanations checked (in English), by kind.
	Explained map[string]int
}

// RandomGames plays o.Games complete games of g with uniformly random legal
// moves and fails t on the first broken property. See the package doc.
func RandomGames(t testing.TB, g engine.Game, o Options) Stats {
	t.Helper()
	if o.MaxMoves <= 0 {
		o.MaxMoves = 100000
	}
	if o.DeepEvery <= 0 {
		o.DeepEvery = 20
	}
	if o.Unlisted == nil {
		o.Unlisted = MutateMoves
	}
	if err := CheckSettings(g); err != nil {
		t.Fatal(err)
	}
	workers := max(1, min(o.Workers, o.Games))
	parts := make([]Stats, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := Stats{Winners: map[int]int{}}
			for i := w; i < o.Games; i += workers {
				setup := o.Setup(i)
				deep := i%o.DeepEvery == 0
				r := rand.New(rand.NewPCG(o.Seed, uint64(i)))
				if err := playOne(g, setup, r, o, deep, &st); err != nil {
					errs[w] = fmt.Errorf("game %d (players %d, options %s, seed %x, moves from rand.NewPCG(%d, %d)): %v", i, setup.Players, setup.Options, setup.Seed[:], o.Seed, i, err)
					return
				}
				st.Games++
				if deep {
					st.Deep++
				}
			}
			parts[w] = st
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	total := Stats{Winners: map[int]int{}}
	for _, p := range parts {
		total.Games += p.Games
		total.Deep += p.Deep
		total.Moves += p.Moves
		total.Events += p.Events
		total.Rejected += p.Rejected
		total.RoundEnds += p.RoundEnds
		total.Reversible += p.Reversible
		total.Forced += p.Forced
		total.LongestGame = max(total.LongestGame, p.LongestGame)
		for k, v := range p.Winners {
			total.Winners[k] += v
		}
		for k, v := range p.Explained {
			if total.Explained == nil {
				total.Explained = map[string]int{}
			}
			total.Explained[k] += v
		}
	}
	return total
}

func playOne(g engine.Game, setup engine.Setup, r *rand.Rand, o Options, deep bool, stats *Stats) error {
	s, err := g.New(setup)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	if o.Invariant != nil {
		if err := o.Invariant(s); err != nil {
			return fmt.Errorf("invariant after setup: %w", err)
		}
	}
	var log []engine.Event
	roundFrom := 0 // where the round being played starts in log (its previous round's end)
	names := make([]string, setup.Players)
	for i := range names {
		names[i] = fmt.Sprintf("Player %d", i+1)
		if i < len(setup.Names) && setup.Names[i] != "" {
			names[i] = setup.Names[i]
		}
	}
	moves := 0
	for s.Result() == nil {
		if moves >= o.MaxMoves {
			return fmt.Errorf("no end after %d moves", moves)
		}
		tm := s.ToMove()
		if len(tm) == 0 {
			return errors.New("no result but nobody to move")
		}
		seat := tm[r.IntN(len(tm))]
		legal := s.Legal(seat)
		if len(legal) == 0 {
			return fmt.Errorf("seat %d to move but no legal move", seat)
		}
		if deep {
			if err := deepStep(g, s, seat, legal, r, o, stats); err != nil {
				return fmt.Errorf("move %d: %w", moves, err)
			}
			if o.Bots {
				if err := checkBots(g, s, seat, legal, log, setup.Seed); err != nil {
					return fmt.Errorf("move %d: %w", moves, err)
				}
			}
		}
		mv := legal[r.IntN(len(legal))]
		if deep {
			mv, err = roundTripMove(g, mv)
			if err != nil {
				return fmt.Errorf("move %d: %w", moves, err)
			}
		}
		evs, err := s.Decide(seat, mv)
		if err != nil {
			return fmt.Errorf("move %d: listed move %s of seat %d rejected: %v", moves, mustJSON(mv), seat, err)
		}
		if len(evs) == 0 {
			return fmt.Errorf("move %d: move %s gave no event", moves, mustJSON(mv))
		}
		for _, e := range evs {
			var before engine.State
			if deep {
				before = s.Clone()
			}
			s.Apply(e)
			if end := g.RoundEnd(e); end {
				stats.RoundEnds++
				if !g.RoundEnd(g.Redact(e, engine.Spectator)) {
					return fmt.Errorf("move %d: RoundEnd is true for %s but false for its public redaction", moves, e.EventType())
				}
				if err := checkRoundSummary(g, append(log[roundFrom:len(log):len(log)], e), names); err != nil {
					return fmt.Errorf("move %d: %w", moves, err)
				}
				roundFrom = len(log)
			}
			if o.Invariant != nil {
				if err := o.Invariant(s); err != nil {
					return fmt.Errorf("move %d: invariant after event %s %s: %w", moves, e.EventType(), mustJSON(e), err)
				}
			}
			if deep {
				if err := checkEvent(g, before, s, e, o); err != nil {
					return fmt.Errorf("move %d: %w", moves, err)
				}
			}
			log = append(log, e)
		}
		rev, err := checkReversible(g, s, seat, evs)
		if err != nil {
			return fmt.Errorf("move %d: %w", moves, err)
		}
		if rev {
			stats.Reversible++
		}
		moves++
	}
	stats.Moves += moves
	stats.Events += len(log)
	stats.LongestGame = max(stats.LongestGame, moves)
	if err := checkEnd(g, s, deep); err != nil {
		return err
	}
	stats.Winners[s.Result().Ranking[0].Seat]++
	return CheckReplay(g, setup, log, s, deep)
}

// CheckReplay applies log to a fresh state from setup and checks that the
// result marshals exactly as final. With viaJSON, each event first goes
// through json.Marshal and Game.DecodeEvent.
func CheckReplay(g engine.Game, setup engine.Setup, log []engine.Event, final engine.State, viaJSON bool) error {
	s, err := g.New(setup)
	if err != nil {
		return fmt.Errorf("replay: new: %w", err)
	}
	for i, e := range log {
		if viaJSON {
			e, err = roundTripEvent(g, e)
			if err != nil {
				return fmt.Errorf("replay event %d: %w", i, err)
			}
		}
		s.Apply(e)
	}
	a, b := mustJSON(s), mustJSON(final)
	if !bytes.Equal(a, b) {
		return fmt.Errorf("replay differs:\nreplayed %s\nplayed   %s", a, b)
	}
	return nil
}

func checkEnd(g engine.Game, s engine.State, deep bool) error {
	res := s.Result()
	if len(res.Ranking) != s.Players() {
		return fmt.Errorf("result ranks %d seats of %d", len(res.Ranking), s.Players())
	}
	seen := make([]bool, s.Players())
	for i, sd := range res.Ranking {
		if sd.Seat < 0 || sd.Seat >= s.Players() || seen[sd.Seat] {
			return fmt.Errorf("result has bad or duplicate seat %d", sd.Seat)
		}
		seen[sd.Seat] = true
		if i == 0 && sd.Place != 1 {
			return fmt.Errorf("first place is %d", sd.Place)
		}
		if i > 0 && sd.Place < res.Ranking[i-1].Place {
			return errors.New("result places not ascending")
		}
	}
	if err := checkStandings(s, res); err != nil {
		return err
	}
	if len(s.ToMove()) != 0 {
		return fmt.Errorf("game over but ToMove = %v", s.ToMove())
	}
	for seat := 0; seat < s.Players(); seat++ {
		if l := s.Legal(seat); len(l) != 0 {
			return fmt.Errorf("game over but seat %d has %d legal moves", seat, len(l))
		}
		if s.DefaultMove(seat) != nil {
			return fmt.Errorf("game over but seat %d has a default move", seat)
		}
	}
	if deep {
		if _, err := checkStateJSON(g, s); err != nil {
			return err
		}
	}
	return nil
}

// checkStateJSON checks that s round-trips through JSON and Clone, and
// returns its JSON.
func checkStateJSON(g engine.Game, s engine.State) ([]byte, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal state: %v", err)
	}
	d, err := g.DecodeState(raw)
	if err != nil {
		return nil, fmt.Errorf("decode state: %v", err)
	}
	if again := mustJSON(d); !bytes.Equal(raw, again) {
		return nil, fmt.Errorf("state JSON round trip differs:\n%s\n%s", raw, again)
	}
	if c := mustJSON(s.Clone()); !bytes.Equal(raw, c) {
		return nil, fmt.Errorf("clone differs:\n%s\n%s", raw, c)
	}
	return raw, nil
}

func roundTripMove(g engine.Game, mv engine.Move) (engine.Move, error) {
	raw := mustJSON(mv)
	d, err := g.DecodeMove(raw)
	if err != nil {
		return nil, fmt.Errorf("listed move %s does not decode: %v", raw, err)
	}
	if again := mustJSON(d); !bytes.Equal(withoutLabel(raw), withoutLabel(again)) {
		return nil, fmt.Errorf("move JSON round trip differs: %s then %s", raw, again)
	}
	return d, nil
}

func roundTripEvent(g engine.Game, e engine.Event) (engine.Event, error) {
	raw := mustJSON(e)
	d, err := g.DecodeEvent(e.EventType(), raw)
	if err != nil {
		return nil, fmt.Errorf("event %s %s does not decode: %v", e.EventType(), raw, err)
	}
	if d.EventType() != e.EventType() {
		return nil, fmt.Errorf("event %s decodes as %s", e.EventType(), d.EventType())
	}
	if again := mustJSON(d); !bytes.Equal(raw, again) {
		return nil, fmt.Errorf("event JSON round trip differs: %s then %s", raw, again)
	}
	return d, nil
}

func isRuleError(err error) bool {
	var re *engine.RuleError
	return errors.As(err, &re)
}

func mustJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("<marshal error: %v>", err))
	}
	return raw
}

// checkStandings checks that the result told to players (State.Standings)
// ranks the seats as the recorded result does, in every language, with a
// summary and one cell under each column.
func checkStandings(s engine.State, res *engine.Result) error {
	for _, lang := range []string{"en", "fr", "it"} {
		st := s.Speak(lang, nil).Standings()
		if st == nil {
			return fmt.Errorf("%s: an ended game has no standings", lang)
		}
		if st.Summary == "" || len(st.Columns) == 0 || len(st.Rows) != len(res.Ranking) {
			return fmt.Errorf("%s: standings %+v of a result ranking %d seats", lang, st, len(res.Ranking))
		}
		for i, r := range st.Rows {
			if r.Seat != res.Ranking[i].Seat || r.Place != res.Ranking[i].Place || len(r.Cells) != len(st.Columns) {
				return fmt.Errorf("%s: standings row %d %+v, result %+v, columns %q", lang, i, r, res.Ranking[i], st.Columns)
			}
		}
	}
	return nil
}
