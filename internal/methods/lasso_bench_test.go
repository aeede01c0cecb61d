package methods_test

import (
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
)

// BenchmarkLassoGPSRows is BenchmarkLassoGPS on its first 60 rows, with
// the CPU time per operation and GPS steps per CPU-second besides wall
// time: the benchmark machine is shared, and CPU time is the steadier
// measure of a change to the step's cost.
func BenchmarkLassoGPSRows(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	const rows = 60
	p := methods.NewProblem(m.Basis(), mat.DenseCopyOf(proj.Gamma.Slice(0, rows, 0, m.N())), mat.DenseCopyOf(test.Slice(0, rows, 0, benchD)))
	est, _, err := methods.New("lasso-gps", nil)
	if err != nil {
		b.Fatal(err)
	}
	var z mat.Dense
	var st []methods.Status
	c0 := processCPU(b)
	for b.Loop() {
		if st, err = est.(methods.PreImager).PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
	cpu := (processCPU(b) - c0).Seconds()
	var steps int
	for _, s := range st {
		steps += s.Iterations
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(steps)*float64(b.N)/cpu, "steps/cpu-s")
}

func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
