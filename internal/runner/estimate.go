package runner

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/safefs"
)

// Shape is what a dataset's options say of its size before anything is
// loaded: the rows of its training and test sets together and their
// columns, exact for synthetic data and the fixed real sets, an upper
// bound where the data root decides (Yale B's bad images).
type Shape struct {
	Points int
	Dim    int
	// Work is memory the loading itself needs besides the data, in
	// bytes (Scene-15's GIST filter bank and per-worker buffers).
	Work float64
}

// Estimate is the resource estimate of a config, computed by Validate
// from its options alone, so that `runexp validate` and a run refuse the
// same configs, before anything is allocated.
type Estimate struct {
	Shape
	// GramBytes is the kernel matrix of every point, Points² float64.
	GramBytes float64
	// Bytes is the peak memory estimate: the process's own baseBytes,
	// gramCopies kernel-sized arrays (the matrix, its centred copy, the
	// eigenvectors and the eigensolver's work space, with room to
	// spare), and the data, dataCopies times (the set, its corrupted and
	// de-noised copies).
	Bytes float64
}

// gramCopies and dataCopies are the multiples of the kernel matrix and of
// the data an estimate counts, baseBytes what a run takes whatever its
// data (the binary, the report's figures and tables: 40 MiB on 36
// synthetic points, 109 MiB on abrahamsen-hansen-fig3's 500, measured
// with /usr/bin/time). They are generous on purpose: measured peaks
// (docs/exit-status.md, "Resources") stay below the estimate.
const (
	gramCopies = 6
	dataCopies = 4
	baseBytes  = 256 << 20
)

// MaxMemory is the memory a config's Estimate may reach: the machine's
// physical memory, or a cgroup's limit when lower (16 GiB where neither
// can be read). Tests set it.
var MaxMemory = defaultMaxMemory()

// ResourceError refuses a config whose estimate exceeds MaxMemory.
type ResourceError struct {
	Err      error
	Estimate Estimate
}

func (e *ResourceError) Error() string { return e.Err.Error() }
func (e *ResourceError) Unwrap() error { return e.Err }

// estimate checks a config's size against the data it names before
// anything is loaded: components beyond the points, a shape the kind
// cannot take (Kind.Shape), and memory beyond MaxMemory. A dataset
// without Shape gives no estimate (nil, nil).
func estimate(c *config.Config, p *Plan) (*Estimate, error) {
	if p.dataset.Shape == nil {
		return nil, nil
	}
	s := p.dataset.Shape(p.DataOptions)
	kind, opts := p.Kind, p.Options
	if s.Points > 0 {
		for _, q := range c.Model.Components {
			if q > s.Points {
				return nil, componentsError(c, q, s.Points)
			}
		}
	}
	if kind.Shape != nil {
		if err := kind.Shape(c, opts, s); err != nil {
			return nil, err
		}
	}
	n, d := float64(s.Points), float64(s.Dim)
	e := &Estimate{Shape: s, GramBytes: 8 * n * n}
	e.Bytes = baseBytes + gramCopies*e.GramBytes + dataCopies*8*n*d + s.Work
	if e.Bytes > float64(MaxMemory) {
		what := fmt.Sprintf("the kernel matrix alone, %d² float64, is %s", s.Points, Bytes(e.GramBytes))
		if s.Work > e.GramBytes {
			what = fmt.Sprintf("loading them alone needs %s", Bytes(s.Work))
		}
		return nil, &ResourceError{Estimate: *e, Err: c.Dataset.Options.Errorf("", "dataset: %d points of %d values need about %s of memory (%s), more than the %s runexp may use on this machine; use fewer or smaller points",
			s.Points, s.Dim, Bytes(e.Bytes), what, Bytes(float64(MaxMemory)))}
	}
	return e, nil
}

// componentsError is the refusal of a component count above the points
// of the data, from the estimate (validate) or the loaded data (run).
func componentsError(c *config.Config, q, n int) error {
	return c.ModelErrorf("model.components: %d exceeds the %d points of the data (training and test together); a principal-component model of them has at most that many components", q, n)
}

// Bytes formats a byte count with a binary unit.
func Bytes(b float64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%.0f B", b)
	}
	exp := min(int(math.Log(b)/math.Log(unit)), 6)
	return fmt.Sprintf("%.1f %ciB", b/math.Pow(unit, float64(exp)), "KMGTPE"[exp-1])
}

// defaultMaxMemory reads the machine's memory from /proc/meminfo and a
// cgroup v2 limit from /sys/fs/cgroup/memory.max, taking the lower.
func defaultMaxMemory() int64 {
	const fallback = 16 << 30
	total := int64(0)
	if b, err := safefs.ReadFile("/proc/meminfo", 1<<20); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb << 10
				}
			}
		}
	}
	if b, err := safefs.ReadFile("/sys/fs/cgroup/memory.max", 1<<10); err == nil {
		if lim, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && lim > 0 && (total == 0 || lim < total) {
			total = lim
		}
	}
	if total <= 0 {
		return fallback
	}
	return total
}

// Product multiplies sizes read from a config, saturating at 2⁵³ rather
// than wrapping around, so that a Shape built from huge options stays
// huge: Shape{Points: Product(classes, groups, perCell)}.
func Product(xs ...int) int {
	const top = 1 << 53
	p := 1.0
	for _, x := range xs {
		p *= float64(x)
	}
	if p > top || p < -top {
		return top
	}
	return int(p)
}
