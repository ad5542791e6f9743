package playtest

import (
	"crypto/sha256"
	"io"
	"math/rand/v2"
	"sync"
)

// Seeds returns a source of game ids and seeds for play.Config.Seeds: a
// ChaCha8 stream keyed by name (a test's t.Name()), so that every run of
// the test deals the same games in the order it creates them, and a game
// state the test reaches it reaches every time (no test hopes a random
// deal goes its way). Two services that share a database need two names:
// one stream gives the same ids again. It is safe for concurrent use (a
// server creates games from several goroutines).
func Seeds(name string) io.Reader {
	return &seeds{r: rand.NewChaCha8(sha256.Sum256([]byte("pbem test seeds " + name)))}
}

// seeds is Seeds' stream under a lock.
type seeds struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func (s *seeds) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(p)
}
