package conformance_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

// byCall is a de-noiser whose answer depends on how many times it was
// called before (calls counts them, odd from 1) and on the rows asked
// for: what an estimator with hidden state or a batch rule does.
type byCall struct {
	faithful
	calls *atomic.Int64
	do    func(call int64, m int, st []methods.Status) ([]methods.Status, error)
}

func (e byCall) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	st, err := e.faithful.Denoise(dst, in)
	if err != nil {
		return st, err
	}
	for i := range st {
		st[i].Converged = true // as a direct method reports a row
	}
	m, _ := in.X0.Dims()
	return e.do(e.calls.Add(1), m, st)
}

func newByCall(do func(call int64, m int, st []methods.Status) ([]methods.Status, error)) byCall {
	return byCall{calls: new(atomic.Int64), do: do}
}

// TestKitMessages checks that a check's message says what it expected
// and what came: each status in words, the error against the rows, a
// row alone against the same row in the batch.
func TestKitMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		est   any
		cfg   conformance.Config
		check string
		say   []string
	}{
		{
			name: "iterations differ between runs",
			est: newByCall(func(call int64, _ int, st []methods.Status) ([]methods.Status, error) {
				for i := range st {
					st[i] = methods.Status{Iterations: 3 + int(call%2), Converged: call%2 == 0}
				}
				return st, nil
			}),
			check: "Denoiser/gaussian/deterministic",
			// exact-denoise makes calls 1 and 2; the Gaussian problem's
			// first run is call 3 (odd: 4 iterations, not converged), its
			// second call 4 (3 iterations, converged).
			say: []string{"the same estimator run twice: row 0 solved in 4 iterations (not converged), then solved in 3 iterations; want the same"},
		},
		{
			name: "an error on every other call",
			est: newByCall(func(call int64, _ int, st []methods.Status) ([]methods.Status, error) {
				if call%2 == 0 {
					return nil, errors.New("flaky")
				}
				return st, nil
			}),
			check: "Denoiser/gaussian/deterministic",
			say:   []string{"the same estimator run twice: the first run returned 5 rows, the second returned the error flaky; want the same"},
		},
		{
			name: "a row failing alone",
			est: newByCall(func(_ int64, m int, st []methods.Status) ([]methods.Status, error) {
				if m == 1 {
					st[0].Err = errors.New("alone")
				}
				return st, nil
			}),
			check: "Denoiser/gaussian/rows-independent",
			say:   []string{"row 0 solved in the batch but failed (alone) alone; want the same", "row 4 solved in the batch"},
		},
		{
			name: "a row refused alone",
			est: newByCall(func(_ int64, m int, st []methods.Status) ([]methods.Status, error) {
				if m == 1 {
					return nil, errors.New("batches only")
				}
				return st, nil
			}),
			check: "Denoiser/gaussian/rows-independent",
			say:   []string{"row 0 solved alone returned the error batches only; want the batch's row"},
		},
		{
			name: "two statuses for a row",
			est: newByCall(func(_ int64, m int, st []methods.Status) ([]methods.Status, error) {
				if m == 1 {
					st = append(st, methods.Status{})
				}
				return st, nil
			}),
			check: "Denoiser/gaussian/rows-independent",
			say:   []string{"row 2 solved alone gave 2 statuses, want 1"},
		},
		{
			name: "every kernel declined",
			est: newByCall(func(int64, int, []methods.Status) ([]methods.Status, error) {
				return nil, methods.Unsupportedf("nothing")
			}),
			check: "Denoiser/exact-denoise",
			say:   []string{"est took neither the linear nor the Gaussian kernel; want at least one"},
		},
	} {
		r, ok := runWith(tc.est, tc.cfg)[tc.check]
		if !ok || !r.Failed {
			t.Errorf("%s: %s ran %v and passed", tc.name, tc.check, ok)
			continue
		}
		all := strings.Join(r.Errors, "\n")
		for _, s := range tc.say {
			if !strings.Contains(all, s) {
				t.Errorf("%s: %s failed with %q, want %q", tc.name, tc.check, r.Errors, s)
			}
		}
	}
}

// TestKitBatchCoupled checks that Config.BatchCoupled leaves out the
// row-independence check and no other.
func TestKitBatchCoupled(t *testing.T) {
	plain, skipped := runWith(coupled{}, conformance.Config{}), runWith(coupled{}, conformance.Config{BatchCoupled: true})
	for name := range plain {
		_, kept := skipped[name]
		if want := !strings.HasSuffix(name, "/rows-independent"); kept != want {
			t.Errorf("with BatchCoupled, %s run: %v, want %v", name, kept, want)
		}
	}
	if len(skipped) != len(plain)-2 {
		t.Errorf("BatchCoupled left %d of %d checks, want two fewer (one per kernel)", len(skipped), len(plain))
	}
}

// TestKitQuotesStandardErrorOnce checks that a command that crashes on
// every problem has its standard error quoted in the first message only,
// the others pointing back to it, and that a crash under the linear
// kernel is a failure, not a kernel declined.
func TestKitQuotesStandardErrorOnce(t *testing.T) {
	const tb = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'numpy'"
	ce := &methods.CommandError{Command: "python3 est.py", Reason: "failed (exit status 1)", Stderr: tb}
	est := newByCall(func(int64, int, []methods.Status) ([]methods.Status, error) {
		return nil, fmt.Errorf("est: %w", ce)
	})
	var quoted, referred []string
	for _, r := range conformance.Check("est", func(t conformance.T) {
		conformance.CheckEstimator(t, "est", func(conformance.T) any { return est }, conformance.Config{})
	}) {
		for _, e := range append(r.Errors, r.Notes...) {
			if strings.Contains(e, "ModuleNotFoundError") {
				quoted = append(quoted, r.Name)
			}
			if strings.Contains(e, "est: external: python3 est.py failed (exit status 1); standard error as quoted above") {
				referred = append(referred, r.Name)
			}
		}
		if r.Name == "Denoiser/exact-denoise" && !r.Failed {
			t.Error("a crash under the linear kernel passed exact-denoise")
		}
	}
	if len(quoted) != 1 || quoted[0] != "Denoiser/exact-denoise" {
		t.Errorf("the traceback is quoted in %q, want once, in the first check", quoted)
	}
	if len(referred) < 2 {
		t.Errorf("later messages referring to it: %q, want every kernel's", referred)
	}

	// Without standard error there is nothing to quote: every message is
	// the error in full.
	bare := &methods.CommandError{Command: "python3 est.py", Reason: "failed (exit status 1)"}
	res := runWith(newByCall(func(int64, int, []methods.Status) ([]methods.Status, error) { return nil, bare }), conformance.Config{})
	full := "external: python3 est.py failed (exit status 1); no standard error"
	for _, name := range []string{"Denoiser/exact-denoise", "Denoiser/gaussian", "Denoiser/linear"} {
		if r := res[name]; !strings.Contains(strings.Join(r.Errors, "\n"), full) {
			t.Errorf("%s: %q, want %q", name, r.Errors, full)
		}
	}
}
