package matrix

import (
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// TestSameWhateverWorkers checks that the cross-paper matrix, its
// records, tables and pages, do not depend on the number of cell
// workers, the failing benchmark included.
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "matrix.yaml", src)
}
