// Command testtime runs one track of `make test` and, at the end, tells where
// the time went.
//
//	testtime -track NAME -dir DIR -- go test -json ARGS...
//	testtime -report DIR
//
// With -track it runs the command (a `go test -json`), prints what a plain
// `go test` would (the "ok pkg 1.2s" and "FAIL" lines, the output of failing
// tests, build errors), keeps go test's exit code, and records the track's
// wall time and load, each package's time and each test's in DIR/NAME.json.
// Lines that are no test2json event are printed as they come, so a track
// may be any command (make test's vet track is `make vet`).
//
// With -report it prints, from every track recorded in DIR, a table of the
// tracks' and packages' wall times beside those of the previous report
// (DIR/../test-times-last.json, which it then replaces), the slowest tests,
// and a closing line "tests: N passed, N failed, N skipped". It exits 1 when
// a track recorded a failure.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	track := flag.String("track", "", "the track's `name`: run the command after -- and record its times")
	dir := flag.String("dir", "", "the `folder` of the track records")
	report := flag.String("report", "", "print the table of the track records in `folder`")
	flag.Parse()
	var code int
	var err error
	switch {
	case *track != "" && *dir != "" && flag.NArg() > 0:
		code, err = runTrack(*track, *dir, flag.Args(), os.Stdout, os.Stderr)
	case *report != "":
		code, err = printReport(*report, os.Stdout)
	default:
		fmt.Fprintln(os.Stderr, "usage: testtime -track NAME -dir DIR -- go test -json ARGS... | testtime -report DIR")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtime:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
