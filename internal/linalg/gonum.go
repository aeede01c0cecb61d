//go:build !openblas

package linalg

const backend = "gonum"
