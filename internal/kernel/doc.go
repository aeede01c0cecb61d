// Package kernel provides the kernel functions used by runexp and batched
// Gram-matrix computation.
//
// # Overview
//
// A Kernel evaluates k(x, y) for two input vectors. Gram computes k between
// every row of one matrix and every row of another with one matrix product
// (‖x−y‖² = ‖x‖² + ‖y‖² − 2xᵀy), which is how every estimator in runexp
// touches the training set: all test points against all training points at
// once, never a loop of vector operations.
//
// # Parameterisations
//
// The papers write the Gaussian kernel three ways:
//
//	exp(−‖x−y‖²/c)       Zheng & Lai, Abrahamsen & Hansen (c)
//	exp(−γ‖x−y‖²)        Nguyen & De la Torre (γ = 1/c)
//	exp(−‖x−y‖²/σ²)      Huang, Tian & De la Torre (σ² = c)
//
// Gaussian stores c; NewGaussianGamma and NewGaussianSigma convert the other
// two so configs can use each paper's own parameter.
//
// Kernels that let a feature-space distance be turned back into an input-space
// distance (needed by Kwok & Tsang's method) implement DistanceInverter.
package kernel
