package classify

import (
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

// TestDeclaresInnerWorkers: a cell runs its splits on splitWorkers
// goroutines, each calling BLAS (LPKPCA's eigensolves), so the runner must
// know to share the cores among them. Undeclared, the OpenBLAS build ran
// make lpkpca in 296 s against 218 s declared (docs/performance.md).
func TestDeclaresInnerWorkers(t *testing.T) {
	if got, want := runner.InnerWorkers("classify"), splitWorkers(); got != want || want < 1 {
		t.Errorf("runner.InnerWorkers(classify) = %d, want splitWorkers() = %d", got, want)
	}
}
