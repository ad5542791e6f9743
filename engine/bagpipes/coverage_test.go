package bagpipes

import (
	"path/filepath"
	"testing"

	"pbem/engine/enginetest"
)

// TestCoverageTable checks the coverage table of doc.go against
// testdata/golden: each scenario a row names is played and must set the
// row's tag ("reached") by assertions that passed.
func TestCoverageTable(t *testing.T) {
	enginetest.CheckCoverageTable(t, "testdata/golden", ".json", func(name string) map[string]bool {
		var tags map[string]bool
		t.Run(name, func(t *testing.T) { tags = runScenario(t, filepath.Join("testdata", "golden", name+".json")) })
		return tags
	})
}
