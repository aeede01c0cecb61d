package runner

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
)

// reporting returns cell with its estimator built so that what it reports
// of the parameters it ran with (methods.ParamsReporter: an external
// script's own parameters, defaults included) is gathered, and the
// function that returns what was gathered (nil when nothing was). A cell
// without an estimator is returned as it is. The cell's estimator Spec is
// a copy whose New hands each estimator it builds the gathering function;
// nothing else of the cell changes.
func reporting(cell *Cell) (*Cell, func() map[string]any) {
	if cell.Method == nil || cell.Method.Spec == nil || cell.Method.Spec.New == nil {
		return cell, func() map[string]any { return nil }
	}
	var mu sync.Mutex
	var got map[string]any
	note := func(m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if got == nil {
			got = map[string]any{}
		}
		for k, v := range m {
			got[k] = mergeRan(got[k], v, got != nil && hasKey(got, k))
		}
	}
	spec := *cell.Method.Spec
	build := spec.New
	spec.New = func(p methods.Params) (any, error) {
		est, err := build(p)
		if r, ok := est.(methods.ParamsReporter); ok && err == nil {
			r.ReportParams(note)
		}
		return est, err
	}
	bm := *cell.Method
	bm.Spec = &spec
	out := *cell
	out.Method = &bm
	return &out, func() map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// mergeRan merges a reported value v into what was gathered for its
// parameter (old, when had): the same value stays one value; different
// ones become the list of the distinct values, in the order reported.
func mergeRan(old, v any, had bool) any {
	if !had {
		return v
	}
	list, isList := old.([]any)
	if !isList {
		list = []any{old}
	}
	for _, x := range list {
		if fmt.Sprint(x) == fmt.Sprint(v) {
			if isList {
				return list
			}
			return old
		}
	}
	return append(slices.Clone(list), v)
}

// withRan returns with (what the --with specs did in a config) with each
// added estimator's Ran filled in from the records of its label: the
// parameters its cells reported they ran with, merged as mergeRan does.
func withRan(with []report.WithSpec, recs []report.Record) []report.WithSpec {
	if len(with) == 0 {
		return with
	}
	out := slices.Clone(with)
	for i := range out {
		if out[i].Skipped != "" {
			continue
		}
		var ran map[string]any
		for _, r := range recs {
			if r.Method() != out[i].Label || len(r.Ran) == 0 {
				continue
			}
			if ran == nil {
				ran = map[string]any{}
			}
			keys := slices.Collect(maps.Keys(r.Ran))
			sort.Strings(keys)
			for _, k := range keys {
				ran[k] = mergeRan(ran[k], r.Ran[k], hasKey(ran, k))
			}
		}
		out[i].Ran = ran
	}
	return out
}
