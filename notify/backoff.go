package notify

import (
	"math/rand/v2"
	"time"
)

// Backoff returns the delay before retry number attempts (1 for the first
// retry): base·2^(attempts-1), capped at max, with ±20% jitter so that rows
// that failed together do not retry in lockstep.
func Backoff(base, max time.Duration) func(attempts int) time.Duration {
	return func(attempts int) time.Duration {
		d := base
		for i := 1; i < attempts && d < max; i++ {
			d *= 2
		}
		d = min(d, max)
		jitter := time.Duration((rand.Float64()*0.4 - 0.2) * float64(d))
		return d + jitter
	}
}
