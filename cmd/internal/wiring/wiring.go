// Package wiring holds what the commands set up the same way: the games a
// server plays and the garbage-collector settings of a process that
// serves. pbem serve uses both, and so does pbemload, which runs the API
// in its own process to measure it as pbem serve would run.
package wiring

import (
	"fmt"
	"runtime/debug"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
)

// Games returns the registry of every game pbem plays.
func Games() (engine.Registry, error) {
	l, err := lords.New()
	if err != nil {
		return nil, fmt.Errorf("lords: %w", err)
	}
	return engine.NewRegistry(l, bagpipes.Game{}), nil
}

// The server's garbage collector settings. Its live heap is small (about
// 20 MB with 10,000 active games) while a move allocates a lot of short-lived
// JSON, so the default GOGC=100 collects very often: the load test measured
// 20% less Go CPU per move with GOGC=400. The soft memory limit makes the
// collector work harder again before the heap nears it, keeping the process
// well under the 150 MB goal.
const (
	serverGCPercent   = 400
	serverMemoryLimit = 100 << 20
)

// TuneGC applies the server's collector settings, unless the operator chose
// them: gogc and gomemlimit are the values of GOGC and GOMEMLIMIT, empty
// when unset.
func TuneGC(gogc, gomemlimit string) {
	if gogc == "" {
		debug.SetGCPercent(serverGCPercent)
	}
	if gomemlimit == "" {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}
