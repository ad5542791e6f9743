package pbemevent

import (
	"encoding/hex"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// TestSeedFormat: a marked seed names its format, ends with the mark's
// bytes, and refuses a chain in another format; an unmarked seed (every
// game created before the mark) refuses none.
func TestSeedFormat(t *testing.T) {
	var seed engine.Seed
	for i := range seed {
		seed[i] = byte(200 + i)
	}
	if f := SeedFormat(seed); f != 0 {
		t.Fatalf("an unmarked seed says format %d", f)
	}
	for _, f := range []int{events.FormatPlain, events.FormatCommitted} {
		if err := CheckSeedFormat(seed, f); err != nil {
			t.Errorf("an unmarked seed refuses format %d: %v", f, err)
		}
	}
	MarkSeed(&seed, events.FormatCommitted)
	if h := hex.EncodeToString(seed[:]); !strings.HasSuffix(h, "7062656d666d7402") || !strings.HasPrefix(h, "c8c9") {
		t.Errorf("marked seed %s: want the first 24 bytes kept and 'pbemfmt' 0x02 at the end", h)
	}
	if f := SeedFormat(seed); f != events.FormatCommitted {
		t.Errorf("a seed marked for format 2 says %d", f)
	}
	if err := CheckSeedFormat(seed, events.FormatCommitted); err != nil {
		t.Errorf("format 2 refused: %v", err)
	}
	if err := CheckSeedFormat(seed, events.FormatPlain); err == nil || !strings.Contains(err.Error(), "made for chain format 2") {
		t.Errorf("format 1 on a format-2 seed: %v", err)
	}
	c := Created{Seed: hex.EncodeToString(seed[:])}
	if _, err := c.CommitKey(); err == nil {
		t.Error("pbem.created of a format-2 seed without chain_format gave a key")
	}
	c.ChainFormat = events.FormatCommitted
	if k, err := c.CommitKey(); err != nil || k == nil {
		t.Errorf("format 2: key %v, %v", k, err)
	}
}
