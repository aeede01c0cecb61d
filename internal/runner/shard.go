package runner

import (
	"fmt"

	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Shard selects a deterministic 1/Count of a config's cells: those whose
// grid index is Index modulo Count. Index runs from 0 to Count−1, as Slurm
// array task ids (--array=0-N) and Kubernetes completion indexes do.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 ≤ i < n (e.g. 0/4)", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// Active reports whether the shard selects anything less than everything.
func (s Shard) Active() bool { return s.Count > 1 }

func (s Shard) selects(cell *Cell) bool { return !s.Active() || cell.Index%s.Count == s.Index }

func (s Shard) file(dir string) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("shard-%d-of-%d.jsonl", s.Index, s.Count))
}

// Merge reads every shard file of a config's result directory and returns
// the records of all cells in grid order, failing if a cell is missing or
// the shard files disagree on the shard count.
func Merge(dir string, c *config.Config, cells []*Cell) ([]report.Record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "shards", "shard-*-of-*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("merge: no shard files in %s: run the shards first (runexp --shard i/n %s)", filepath.Join(dir, "shards"), c.File)
	}
	sort.Strings(files)
	byKey := map[string]report.Record{}
	counts := map[int]bool{}
	for _, f := range files {
		var i, n int
		if _, err := fmt.Sscanf(filepath.Base(f), "shard-%d-of-%d.jsonl", &i, &n); err != nil {
			return nil, fmt.Errorf("merge: unexpected shard file name %s", f)
		}
		counts[n] = true
		recs, err := report.ReadJSONL(f)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		for _, r := range recs {
			byKey[r.Key] = r
		}
	}
	if len(counts) > 1 {
		return nil, fmt.Errorf("merge: %s holds shards of different counts; remove the stale ones", filepath.Join(dir, "shards"))
	}
	out := make([]report.Record, len(cells))
	var missing []string
	for i, cell := range cells {
		r, ok := byKey[cell.Key]
		if !ok {
			missing = append(missing, cell.Key)
			continue
		}
		out[i] = r
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: %d of %d cells have no shard record (first: %s); run the missing shards", len(missing), len(cells), missing[0])
	}
	return out, nil
}
