// Command eventstore measures appends of one event per transaction, each
// writer on its own stream and naming the version it expects, at several
// writer counts, for pbem's event store beside Message DB and a plain
// single-row INSERT, on one PostgreSQL server and in one run:
//
//   - pbem: (*postgres.Store).Append, as events/postgres's BenchmarkAppend;
//   - mdb: Message DB's write_message, streams "game-<run>x<w>" (all in
//     category "game", which write_message serialises with an advisory lock);
//   - mdb-cat: write_message with a category per writer ("game<w>x<run>-1");
//   - insert: a plain INSERT into plain_events (LIKE events INCLUDING ALL).
//
// Systems take turns: for each writer count, every round runs each system
// alone for -phase, in an order rotated from round to round, so that the
// machine's other work weighs on all of them alike. It prints events/s, the
// CPU per event of this process and of the whole PostgreSQL cluster, WAL
// bytes per event, and the ratios.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	url := flag.String("url", os.Getenv("PEERS_DATABASE_URL"), "admin URL of the PostgreSQL server")
	phase := flag.Duration("phase", 3*time.Second, "how long each system runs per round")
	rounds := flag.Int("rounds", 3, "rounds per writer count")
	writers := flag.String("writers", "1,8,32", "writer counts")
	systems := flag.String("systems", "pbem,mdb,mdb-cat,insert", "systems, in the first round's order")
	install := flag.String("mdb-install", "", "Message DB install script (mdb-install.sh); empty: no mdb systems")
	jsonOut := flag.String("json", "", "also write the results to this JSON file")
	cpuProfile := flag.String("cpuprofile", "", "write this process's CPU profile of the whole run to this file (with -systems pbem: the client side of pbem's appends)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "eventstore:", err)
			os.Exit(2)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	var counts []int
	for _, s := range strings.Split(*writers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "eventstore: bad -writers %q\n", *writers)
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	names := strings.Split(*systems, ",")
	if *install == "" {
		names = slices.DeleteFunc(names, func(s string) bool { return strings.HasPrefix(s, "mdb") })
	}
	res, err := run(context.Background(), config{url: *url, phase: *phase, rounds: *rounds, writers: counts,
		systems: names, install: *install})
	if err != nil {
		fmt.Fprintln(os.Stderr, "eventstore:", err)
		os.Exit(1)
	}
	printSummary(counts, res)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "eventstore:", err)
			os.Exit(1)
		}
	}
}
