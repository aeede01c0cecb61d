package methods

// The BLAS/LAPACK backend: pure-Go gonum by default, OpenBLAS when built
// with the tag openblas (package linalg registers it on import).
import _ "github.com/runexp/runexp/internal/linalg"
