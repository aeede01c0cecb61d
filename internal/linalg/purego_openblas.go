//go:build openblas

package linalg

// PureGo reports whether the registered BLAS rounds as gonum's pure-Go
// BLAS; under the openblas tag it is OpenBLAS, which does not.
func PureGo() bool { return false }
