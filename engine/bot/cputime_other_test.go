//go:build !linux

package bot_test

import "time"

// threadCPU falls back to the wall clock where the thread's CPU time is
// not at hand.
func threadCPU() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}
