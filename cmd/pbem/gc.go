package main

import "runtime/debug"

// The server's garbage collector settings. Its live heap is small (about
// 20 MB with 10,000 active games) while a move allocates a lot of short-lived
// JSON, so the default GOGC=100 collects very often: loadtest measured 20%
// less Go CPU per move with GOGC=400. The soft memory limit makes the
// collector work harder again before the heap nears it, keeping the process
// well under the 150 MB goal.
const (
	serverGCPercent   = 400
	serverMemoryLimit = 100 << 20
)

// tuneGC applies the server's collector settings, unless the operator chose
// them with GOGC or GOMEMLIMIT.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serverGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}
