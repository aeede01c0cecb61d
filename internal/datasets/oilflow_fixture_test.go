package datasets

import (
	"fmt"
	"strings"
	"testing"
)

// oilLines is n lines of 12 values, value j of line i being i + j/16 (exact
// in binary, so the parsed matrix can be compared with ==).
func oilLines(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 0; j < oilDims; j++ {
			fmt.Fprintf(&b, " %g", float64(i)+float64(j)/16)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// TestLoadOilFlowSplits loads each split from its own pair of files: the
// data by line, a blank line skipped, and the one-hot labels as the
// regime's column.
func TestLoadOilFlowSplits(t *testing.T) {
	labels := "0 1 0\n\n1 0 0\n0 0 1\n" // the blank line is no row
	for _, split := range []string{"trn", "tst", "vdn"} {
		name := map[string]string{"trn": "Trn", "tst": "Tst", "vdn": "Vdn"}[split]
		dir := writeRoot(t, map[string][]byte{
			"oilflow/Data" + name + ".txt":     oilLines(3),
			"oilflow/Data" + name + "Lbls.txt": []byte(labels),
		})
		set, err := LoadOilFlow(mustOpen(t, dir), split)
		if err != nil {
			t.Fatalf("%s: %v", split, err)
		}
		if set.Name != "oilflow-"+split {
			t.Errorf("%s: name %q", split, set.Name)
		}
		if n, d := set.X.Dims(); n != 3 || d != 12 {
			t.Fatalf("%s: %d×%d, want 3×12", split, n, d)
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 12; j++ {
				if got, want := set.X.At(i, j), float64(i)+float64(j)/16; got != want {
					t.Fatalf("%s: x[%d][%d] = %g, want %g", split, i, j, got, want)
				}
			}
		}
		if got := fmt.Sprint(set.Labels); got != "[1 0 2]" {
			t.Errorf("%s: labels %s, want [1 0 2]", split, got)
		}
	}
}

// TestLoadOilFlowRefusals: labels that are not one-hot, or do not match
// the data's rows, and a split by another name are errors naming the file
// and the line.
func TestLoadOilFlowRefusals(t *testing.T) {
	for _, c := range []struct {
		name, labels string
		want         []string
	}{
		{"two classes", "1 0 0\n0 1 1\n1 0 0\n", []string{"oilflow/DataTrnLbls.txt", "line 2 is not one-hot"}},
		{"no class", "1 0 0\n0 1 0\n0 0 0\n", []string{"line 3 has no class"}},
		{"not 0 or 1", "0.5 0.5 0\n1 0 0\n1 0 0\n", []string{"line 1 holds 0.5, want 0 or 1"}},
		{"rows", "1 0 0\n0 1 0\n", []string{"2 label rows for 3 data rows in oilflow/DataTrn.txt"}},
		{"columns", "1 0\n0 1\n1 0\n", []string{"oilflow/DataTrnLbls.txt:1: 2 values, want 3"}},
		{"empty", "\n\n", []string{"oilflow/DataTrnLbls.txt: no data"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeRoot(t, map[string][]byte{
				"oilflow/DataTrn.txt":     oilLines(3),
				"oilflow/DataTrnLbls.txt": []byte(c.labels),
			})
			set, err := LoadOilFlow(mustOpen(t, dir), "trn")
			if set != nil {
				t.Errorf("a set with the error")
			}
			wantErr(t, err, c.want...)
		})
	}
	_, err := LoadOilFlow(nil, "Trn")
	wantErr(t, err, `split "Trn", want trn, tst or vdn`)
	// The labels file is read after the data: a missing one is named.
	dir := writeRoot(t, map[string][]byte{"oilflow/DataVdn.txt": oilLines(1)})
	_, err = LoadOilFlow(mustOpen(t, dir), "vdn")
	wantErr(t, err, "DataVdnLbls.txt not found")
}
