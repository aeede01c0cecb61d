package localminima_test

import (
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// TestSameWhateverWorkers checks that the records, tables and both
// figures of Fig. 3 do not depend on the number of cell workers.
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "localminima.yaml", head+`model: {kernel: gaussian, c: [0.05, 0.5, 5], components: 5}
methods: [{name: mika, label: Mika, params: {max_iter: 200, tol: 1.0e-9}}]
experiment: {point: [0, 0], distinct_tol: 1.0e-3}
`)
}
