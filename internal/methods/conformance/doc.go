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
// the architecture requires of every estimator, each named for what it
// checks (PreImager/… for a PreImager, Denoiser/… for a Denoiser):
//
//   - exact-pre-image: a PreImager given Ψ = φ(x_j) under a Gaussian kernel
//     (Γ = e_j, X0 = x_j plus noise of size 1e-2) returns x_j;
//     exact-denoise: its ProjectThenPreImage denoiser returns the training
//     inputs with all components, and so does a Denoiser (linear and
//     Gaussian kernels; it may decline one of them, see below). The
//     tolerance is DefaultExactTol relative to max(1, ‖x_j‖) unless
//     Config.ExactTol says otherwise;
//   - under each kernel (gaussian/…, linear/…), on the test inputs'
//     projections on 3 components: finite-output (every row whose Status
//     has no Err is finite, and at least one row is solved: the problems
//     are well conditioned, so NaN in every row fails), inputs-unchanged
//     (Γ, X0, Start, the training inputs, the Gram matrix, the cost terms
//     and the fitted model are bit-for-bit unchanged), deterministic (the
//     same inputs and seed give identical bytes and statuses, with the
//     same estimator value and with a new one, into an empty destination
//     and into a pre-sized one) and rows-independent (each row solved alone
//     gives the batch's answer; skipped with Config.BatchCoupled);
//   - without-X0: a PreImager handles a problem without X0 (cluster
//     centres have none), or declines it;
//   - wrong-width-refused: X0 or Start with the wrong number of columns is
//     a returned error, not a panic.
//
// # Declining and failing
//
// Every estimator must accept the Gaussian kernel. An error is the
// estimator declining a problem, and its check passes with a note
// (PreImager/linear/declined), only when the estimator said so: the
// kernel is one its Spec's Kernels excludes (Mika et al.'s iteration is
// defined for the Gaussian kernel only), X0 is missing and its Spec's
// Requires holds NeedsX0, or the error wraps methods.ErrUnsupported
// (methods.Unsupportedf; an external command exiting with status 3,
// which the Python helper does for rx.Unsupported). Any other error, a
// crash of an external command above all, fails the check whatever the
// kernel. Messages say what was expected and what came; an external
// command's standard error is quoted the first time only.
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
