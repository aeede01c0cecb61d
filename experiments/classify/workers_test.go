package classify_test

import (
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// TestSameWhateverWorkers checks that the records, tables and figure do
// not depend on the number of cell workers (every cell draws its splits
// from its own streams).
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "classify.yaml", cfg)
}
