// Command bots is the bots' tournament: it plays engine-only games (no
// server, no database) between bot levels and prints the win rate of
// level A against level B and the bots' time per decision.
//
// One seat plays A, the others B; A's seat rotates with each game (game i:
// seat i mod players), and game i is dealt from a seed derived from -seed
// and i, so a run is reproducible, and can be split between runs with
// -from (games -from to -from + -games - 1). A game won jointly counts 1/k for each
// of its k winners. A decision's time is the CPU time of its thread (on
// Linux; the wall clock elsewhere), so that a busy machine does not
// inflate it; decisions with a single legal move are not counted.
//
//	go run ./bench/bots -games 1000 -game lords-of-scotland -players 2 -a strong -b normal
//	go run ./bench/bots -games 1000 -game swords-and-bagpipes -players 4 -a strong -b normal -j 2
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"
	"time"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/bot"
	"pbem/engine/lords"
)

func main() {
	games := flag.Int("games", 100, "number of games")
	game := flag.String("game", lords.Name, "game: "+lords.Name+" or "+bagpipes.Name)
	players := flag.Int("players", 2, "players per game")
	a := flag.String("a", "strong", "level of the rotating seat")
	b := flag.String("b", "normal", "level of the other seats")
	seed := flag.Uint64("seed", 1, "tournament seed")
	from := flag.Int("from", 0, "index of the first game (to split a tournament between runs)")
	workers := flag.Int("j", 1, "games played at once")
	flag.Parse()
	if err := run(*games, *from, *game, *players, *a, *b, *seed, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "bots:", err)
		os.Exit(1)
	}
}

// outcome is one game's result for the tournament.
type outcome struct {
	aShare  float64 // A's share of the win (1/k if k seats share first place)
	times   map[bot.Level][]time.Duration
	err     error
	aSeat   int
	players int
}

func run(games, from int, name string, players int, aName, bName string, seed uint64, workers int) error {
	lg, err := lords.New()
	if err != nil {
		return err
	}
	reg := engine.NewRegistry(lg, bagpipes.Game{})
	g, ok := reg[name]
	if !ok {
		return fmt.Errorf("unknown game %q", name)
	}
	la, err := bot.ParseLevel(aName)
	if err != nil {
		return err
	}
	lb, err := bot.ParseLevel(bName)
	if err != nil {
		return err
	}
	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clock := threadCPU()
			for i := range jobs {
				results <- playOne(g, players, la, lb, seed, i, clock)
			}
		}()
	}
	go func() {
		for i := range games {
			jobs <- from + i
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	start := time.Now()
	var share float64
	bySeat := make([]float64, players)
	gamesBySeat := make([]int, players)
	times := map[bot.Level][]time.Duration{}
	done := 0
	for o := range results {
		if o.err != nil {
			return o.err
		}
		done++
		share += o.aShare
		bySeat[o.aSeat] += o.aShare
		gamesBySeat[o.aSeat]++
		for l, ts := range o.times {
			times[l] = append(times[l], ts...)
		}
		if done%100 == 0 && done < games {
			report(name, players, done, la, lb, share, bySeat, gamesBySeat, times, start, workers)
		}
	}
	report(name, players, done, la, lb, share, bySeat, gamesBySeat, times, start, workers)
	return nil
}

// report prints the figures so far (every 100 games, so that a run cut
// short still tells its counts).
func report(name string, players, done int, la, lb bot.Level, share float64, bySeat []float64, gamesBySeat []int,
	times map[bot.Level][]time.Duration, start time.Time, workers int) {
	fair := 1 / float64(players)
	rate := share / float64(done)
	se := math.Sqrt(rate * (1 - rate) / float64(done))
	fmt.Printf("%s, %d players, %d games: %s (one seat, rotated) vs %s\n", name, players, done, la, lb)
	fmt.Printf("  %s wins %.1f%% ± %.1f%% (1 s.e.); fair share %.1f%%, so %.2f× its share\n", la, 100*rate, 100*se, 100*fair, rate/fair)
	for s := range players {
		if gamesBySeat[s] > 0 {
			fmt.Printf("  as seat %d: %.1f%% of %d games\n", s, 100*bySeat[s]/float64(gamesBySeat[s]), gamesBySeat[s])
		}
	}
	for _, l := range []bot.Level{bot.Easy, bot.Normal, bot.Strong} {
		ts := times[l]
		if len(ts) == 0 {
			continue
		}
		ts = slices.Clone(ts)
		slices.Sort(ts)
		fmt.Printf("  %s decisions with a choice: %d, CPU time p50 %s, p99 %s, max %s\n", l, len(ts), pct(ts, 0.50), pct(ts, 0.99), ts[len(ts)-1].Round(time.Microsecond))
	}
	fmt.Printf("  wall time %s with %d workers\n", time.Since(start).Round(time.Second), workers)
}

func pct(ts []time.Duration, p float64) time.Duration {
	i := min(int(math.Ceil(p*float64(len(ts))))-1, len(ts)-1)
	return ts[max(i, 0)].Round(time.Microsecond)
}

// playOne plays game i: A at seat i mod players, B elsewhere.
func playOne(g engine.Game, players int, la, lb bot.Level, seed uint64, i int, clock func() time.Duration) outcome {
	o := outcome{aSeat: i % players, players: players, times: map[bot.Level][]time.Duration{}}
	levels := make([]bot.Level, players)
	for s := range levels {
		levels[s] = lb
	}
	levels[o.aSeat] = la
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], seed)
	binary.LittleEndian.PutUint64(buf[8:], uint64(i))
	su := engine.Setup{Players: players, Seed: sha256.Sum256(buf[:])}
	st, err := bot.Play(g, su, levels, clock, func(d bot.Decision) {
		if d.Legal > 1 {
			o.times[d.Level] = append(o.times[d.Level], d.Elapsed)
		}
	})
	if err != nil {
		o.err = fmt.Errorf("game %d: %w", i, err)
		return o
	}
	winners, aWins := 0, false
	for _, s := range st.Result().Ranking {
		if s.Place == 1 {
			winners++
			aWins = aWins || s.Seat == o.aSeat
		}
	}
	if aWins {
		o.aShare = 1 / float64(winners)
	}
	return o
}
