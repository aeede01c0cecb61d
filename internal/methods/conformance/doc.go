// Package conformance provides a conformance kit that every runexp estimator
// passes, in the manner of gonum's lapack/testlapack: one set of checks, run
// against each implementation.
//
// # Overview
//
// CheckRegistered checks a registry Spec (metadata, parameter declarations,
// construction with defaults) and then runs CheckEstimator on the estimator
// it builds. CheckEstimator runs, on small seeded problems
// (rand.New(rand.NewPCG(1, 1)), N = 12 training points in D = 4), the checks
// the architecture requires of every estimator:
//
//   - exact pre-image: a PreImager given Ψ = φ(x_j) under a Gaussian kernel
//     (Γ = e_j, X0 = x_j plus noise of size 1e-2) returns x_j, and so does
//     its ProjectThenPreImage denoiser on the training inputs with all
//     components; a Denoiser returns the training inputs themselves when it
//     denoises them with all components (linear and Gaussian kernels; an
//     estimator may refuse one of them with an error). The tolerance is
//     DefaultExactTol relative to max(1, ‖x_j‖) unless Config.ExactTol says
//     otherwise;
//   - finite output: every row whose Status has no Err is finite;
//   - determinism: the same inputs and seed give identical bytes and
//     statuses, with the same estimator value and with a new one, into an
//     empty destination and into a pre-sized one;
//   - no mutation: Γ, X0, Start, the training inputs, the Gram matrix, the
//     cost terms and the fitted model are bit-for-bit unchanged;
//   - row independence: each row solved alone gives the batch's answer
//     (skipped with Config.BatchCoupled);
//   - clear errors: X0 or Start with the wrong number of columns is a
//     returned error, not a panic, and a missing X0 is either handled or an
//     error;
//   - one Status per row.
//
// Every estimator must accept the Gaussian kernel. With the linear kernel an
// estimator may instead return an error (Mika et al.'s iteration is defined
// for the Gaussian kernel only); it must not panic.
//
// # Inside and outside go test
//
// The checks take a T: package conformance adapts go test's *testing.T to
// it (methodtest.TestRegistered, methodtest.TestEstimator), and Check runs
// the checks without go test, returning one Result per check, so that
// runexp check-estimator prints those verdicts for a registered or an
// external estimator without linking package testing into the binary.
// Known holds the Config of each registered estimator that needs one,
// read by both the conformance tests and the CLI.
//
// Method-specific behaviour (hand-derived iterates, closed forms for the
// linear kernel, parameter edge cases) is tested beside each method, not
// here.
package conformance
