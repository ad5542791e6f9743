package bagpipes

import (
	"testing"

	"pbem/engine/enginetest"
)

// TestCoverageTable checks the coverage table of doc.go against
// testdata/golden.
func TestCoverageTable(t *testing.T) {
	enginetest.CheckCoverageTable(t, "testdata/golden", ".json", nil)
}
