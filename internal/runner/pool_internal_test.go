package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// TestEvaluateClaimsConcurrently checks that judging the claims on
// concurrent goroutines gives, in the claims' order, exactly the results
// of judging them one by one (each claim's bootstrap has its own stream),
// and that a claim whose statistic panics is NOT-EVALUATED with the panic
// as evidence and counted as a crash, while the others are judged.
func TestEvaluateClaimsConcurrently(t *testing.T) {
	const src = "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n" +
		"  - {id: a, statement: s, source: x, check: {type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}}\n" +
		"  - {id: b, statement: s, source: x, check: {type: compare, metric: med, left: {method: A}, op: '<', right: {method: B}}}\n" +
		"  - {id: boom, statement: s, source: x, check: {type: compare, metric: boom, left: {method: A}, op: '<', right: {method: B}}}\n" +
		"  - {id: c, statement: s, source: x, check: {type: ratio, metric: m, left: {method: B}, op: '>', right: {method: A}}}\n" +
		"  - {id: d, statement: s, source: x, check: {type: best, metric: m, among: method, winner: A, sense: min}}\n"
	c, err := config.Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	mk := func(method string, shift float64) report.Record {
		e := make([]float64, 80)
		for i := range e {
			e[i] = 1 + float64((i*37)%61)/6 + shift*float64(1+i%3)
		}
		return report.Record{
			Key: "method=" + method, Params: map[string]any{"method": method}, Status: report.StatusOK,
			Metrics: map[string]float64{"m": metrics.Mean(e), "med": metrics.Percentile(e, 0.5), "boom": 1},
			Arrays:  map[string][]float64{"e": e},
		}
	}
	recs := []report.Record{mk("A", 0), mk("B", 0.4), mk("C", 0.05)}
	o := claims.Options{
		Items: func(_ *report.Record, metric string) (claims.ItemStat, bool) {
			switch metric {
			case "m":
				return claims.ItemStat{Array: "e", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }}, true
			case "med":
				return claims.ItemStat{Array: "e", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, 0.5) }}, true
			case "boom":
				return claims.ItemStat{Array: "e", Stat: func(*report.Record, []float64) float64 { panic("planted") }}, true
			}
			return claims.ItemStat{}, false
		},
		Counts: true,
		Rand:   func(key string) *rand.Rand { return NewRand(1, key) },
	}
	got, crashes := evaluateClaims(c.Claims, recs, o, nil)
	if crashes != 1 || len(got) != len(c.Claims) {
		t.Fatalf("%d results, %d crashes; want %d and 1", len(got), crashes, len(c.Claims))
	}
	for i, cl := range c.Claims {
		if cl.ID == "boom" {
			if r := got[i]; r.ID != "boom" || r.Status != claims.NotEvaluated || !strings.Contains(r.Evidence, "panic: planted") {
				t.Errorf("panicking claim: %+v", r)
			}
			continue
		}
		if want := claims.EvaluateWith(cl, recs, o); !reflect.DeepEqual(got[i], want) {
			t.Errorf("claim %s: concurrent %+v, serial %+v", cl.ID, got[i], want)
		}
		if got[i].Basis != "interval" {
			t.Errorf("claim %s: basis %q, want an interval (the bootstrap ran)", cl.ID, got[i].Basis)
		}
	}
}

// threadsInstance records the backend's thread count seen by its cells.
type threadsInstance struct {
	mu   sync.Mutex
	seen []int
}

func (in *threadsInstance) Run(cell *Cell, rec *report.Record) error {
	n := linalg.Threads()
	in.mu.Lock()
	in.seen = append(in.seen, n)
	in.mu.Unlock()
	return nil
}
func (in *threadsInstance) Report(*Output, []report.Record) error { return nil }

// TestWorkersDoNotChangeBLASThreads: the backend's threads per call, and
// so a cell's bits under OpenBLAS, do not depend on how many cells run at
// once: one cell alone and three cells on two workers all see one
// OpenBLAS thread (or the user's OPENBLAS_NUM_THREADS), GOMAXPROCS under
// pure Go. Before, the runner shared the cores among the running cells,
// and huang-fig6 gave other last bits at -j 1 than at -j 2.
func TestWorkersDoNotChangeBLASThreads(t *testing.T) {
	want := linalg.Threads()
	if linalg.Backend() == "openblas" {
		if _, ok := os.LookupEnv("OPENBLAS_NUM_THREADS"); !ok {
			want = 1
		}
	} else {
		want = runtime.GOMAXPROCS(0)
	}
	for _, tc := range []struct{ cells, workers int }{{1, 1}, {1, 2}, {3, 2}, {3, 1}} {
		in := &threadsInstance{}
		runThreadsConfig(t, in, tc.cells, tc.workers)
		for _, n := range in.seen {
			if n != want {
				t.Errorf("%d cells on %d workers: cells saw %v threads, want %d each", tc.cells, tc.workers, in.seen, want)
				break
			}
		}
	}
}

var threadsKind struct {
	once sync.Once
	in   *threadsInstance
	mu   sync.Mutex
}

// runThreadsConfig runs a config of n cells of in on the given workers.
func runThreadsConfig(t *testing.T, in *threadsInstance, n, workers int) {
	t.Helper()
	threadsKind.once.Do(func() {
		RegisterKind(Kind{Name: "threads-test", Start: func(*Env, any) (Instance, error) { return threadsKind.in, nil }})
		RegisterDataset(DatasetSpec{Name: "threads-none", Load: func(*Env, *datasets.Root, any) (*Data, error) { return &Data{}, nil }})
	})
	threadsKind.mu.Lock()
	defer threadsKind.mu.Unlock()
	threadsKind.in = in
	var cs []string
	for i := range n {
		cs = append(cs, fmt.Sprint(i+1))
	}
	src := "title: t\npaper: p\nkind: threads-test\ndataset: {name: threads-none}\nmodel: {kernel: gaussian, c: [" + strings.Join(cs, ", ") + "]}\n"
	c, err := config.Parse("threads.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	if _, err := Run(context.Background(), c, Options{Workers: workers, NoCache: true}); err != nil {
		t.Fatal(err)
	}
}

// orderInstance records the order its cells run in, across configs.
type orderInstance struct {
	mu  *sync.Mutex
	ran *[]string
	cfg string
}

func (in orderInstance) Run(cell *Cell, rec *report.Record) error {
	in.mu.Lock()
	*in.ran = append(*in.ran, in.cfg+":"+cell.Key)
	in.mu.Unlock()
	return nil
}
func (orderInstance) Report(*Output, []report.Record) error { return nil }

// On one worker the pool starts the config with the longest recorded
// cell first and runs each config's cells longest first; where nothing is
// recorded it keeps the configs' and the grid's order. Every config is
// reported (Done) once, and all three are.
var orderKind struct {
	once sync.Once
	mu   sync.Mutex
	ran  []string
	// open counts the configs started and not reported; most is its
	// largest value.
	open, most int
}

func TestPoolRunsLongestFirst(t *testing.T) {
	orderKind.once.Do(func() {
		RegisterKind(Kind{Name: "order-test", Start: func(env *Env, _ any) (Instance, error) {
			orderKind.mu.Lock()
			orderKind.open++
			orderKind.most = max(orderKind.most, orderKind.open)
			orderKind.mu.Unlock()
			return orderInstance{mu: &orderKind.mu, ran: &orderKind.ran, cfg: env.Config.Name}, nil
		}})
		RegisterDataset(DatasetSpec{Name: "order-none", Load: func(*Env, *datasets.Root, any) (*Data, error) { return &Data{}, nil }})
	})
	orderKind.ran, orderKind.open, orderKind.most = nil, 0, 0
	job := func(name string, est ...float64) *Job {
		// Each config its seed: configs of the same context would share
		// their cells (Pool).
		src := "title: t\npaper: p\nkind: order-test\nseed: " + fmt.Sprint(name[0]) + "\ndataset: {name: order-none}\nmodel: {kernel: gaussian, c: [1, 2, 3]}\n"
		c, err := config.Parse(name+".yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c.Outputs.Dir = t.TempDir()
		j, err := Prepare(c, Options{Workers: 1, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		copy(j.est, est)
		return j
	}
	// a: nothing recorded; b: its second cell the longest of all; c: its
	// third cell longer than any of a's.
	jobs := []*Job{job("a"), job("b", 1, 9, 2), job("c", 0.5, 0.1, 3)}
	var done []string
	p := &Pool{Workers: 1, Done: func(j *Job, _ *Summary, err error) {
		if err != nil {
			t.Error(err)
		}
		done = append(done, j.Config.Name)
		orderKind.mu.Lock()
		orderKind.open--
		orderKind.mu.Unlock()
	}}
	if err := p.Run(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	want := []string{"b:c=2,kernel=gaussian", "b:c=3,kernel=gaussian", "b:c=1,kernel=gaussian",
		"c:c=3,kernel=gaussian", "c:c=1,kernel=gaussian", "c:c=2,kernel=gaussian",
		"a:c=1,kernel=gaussian", "a:c=2,kernel=gaussian", "a:c=3,kernel=gaussian"}
	if !reflect.DeepEqual(orderKind.ran, want) {
		t.Errorf("cells ran in the order\n%q\nwant\n%q", orderKind.ran, want)
	}
	if !reflect.DeepEqual(done, []string{"b", "c", "a"}) {
		t.Errorf("configs reported in the order %q, want b, c, a", done)
	}
}

// However many configs, at most workers + Ahead are started (their data
// held) and not yet reported at once.
func TestPoolBoundsStartedConfigs(t *testing.T) {
	TestPoolRunsLongestFirst(t) // registers the kind
	orderKind.ran, orderKind.open, orderKind.most = nil, 0, 0
	var jobs []*Job
	for i := range 12 {
		src := fmt.Sprintf("title: t\npaper: p\nkind: order-test\nseed: %d\ndataset: {name: order-none}\nmodel: {kernel: gaussian, c: 1}\n", i+1)
		c, err := config.Parse(fmt.Sprintf("one%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c.Outputs.Dir = t.TempDir()
		j, err := Prepare(c, Options{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	n := 0
	p := &Pool{Workers: 2, Ahead: 1, Done: func(*Job, *Summary, error) {
		n++
		orderKind.mu.Lock()
		orderKind.open--
		orderKind.mu.Unlock()
	}}
	if err := p.Run(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	if n != 12 || len(orderKind.ran) != 12 || orderKind.most > 3 {
		t.Errorf("%d configs reported, %d cells run, at most %d started at once; want 12, 12, at most 3", n, len(orderKind.ran), orderKind.most)
	}
}
