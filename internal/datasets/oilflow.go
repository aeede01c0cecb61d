package datasets

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/safefs"
)

// Oil Flow dimensions: 12 gamma densitometry measurements, 3 flow regimes.
const (
	oilDims    = 12
	oilClasses = 3
	// OilFlowTrainFile is the training split Nguyen & De la Torre's
	// Table 1 uses.
	OilFlowTrainFile = "oilflow/DataTrn.txt"
)

// Bounds on an Oil Flow text file: each split has 1000 points, one a
// line (PROVENANCE.md), so 1024 lines, blank ones counted, is more than a
// file can hold; the real lines are at most 192 bytes (12 numbers), so a
// line of 4 KiB is corrupt.
const (
	oilMaxLines = 1024
	oilMaxLine  = 4 << 10
)

// LoadOilFlow loads one split of Bishop & James's (1993) three-phase oil
// flow data: split "trn", "tst" or "vdn" reads oilflow/Data{Trn,Tst,Vdn}.txt
// (1000×12) and its one-hot labels Data…Lbls.txt. Labels are the flow
// regime 0–2.
func LoadOilFlow(r *Root, split string) (*Set, error) {
	var name string
	switch split {
	case "trn":
		name = "Trn"
	case "tst":
		name = "Tst"
	case "vdn":
		name = "Vdn"
	default:
		return nil, fmt.Errorf("oil flow: split %q, want trn, tst or vdn", split)
	}
	xRel := "oilflow/Data" + name + ".txt"
	lRel := "oilflow/Data" + name + "Lbls.txt"
	x, err := readNumbers(r, xRel, oilDims)
	if err != nil {
		return nil, err
	}
	l, err := readNumbers(r, lRel, oilClasses)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if ln, _ := l.Dims(); ln != n {
		return nil, fmt.Errorf("%s: %d label rows for %d data rows in %s", lRel, ln, n, xRel)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
		for c, v := range l.RawRowView(i) {
			switch v {
			case 1:
				if labels[i] >= 0 {
					return nil, fmt.Errorf("%s: line %d is not one-hot", lRel, i+1)
				}
				labels[i] = c
			case 0:
			default:
				return nil, fmt.Errorf("%s: line %d holds %g, want 0 or 1", lRel, i+1, v)
			}
		}
		if labels[i] < 0 {
			return nil, fmt.Errorf("%s: line %d has no class", lRel, i+1)
		}
	}
	return &Set{Name: "oilflow-" + split, X: x, Labels: labels}, nil
}

// readNumbers parses a whitespace-separated text matrix with cols columns
// per line.
func readNumbers(r *Root, rel string, cols int) (*mat.Dense, error) {
	b, err := r.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	return parseNumbers(rel, b, cols)
}

// parseNumbers parses the text b of readNumbers; rel names it in errors.
func parseNumbers(rel string, b []byte, cols int) (*mat.Dense, error) {
	var data []float64
	err := safefs.Lines(bytes.NewReader(b), rel, oilMaxLine, oilMaxLines, func(line int, text []byte) error {
		f := strings.Fields(string(text))
		if len(f) == 0 {
			return nil
		}
		if len(f) != cols {
			return fmt.Errorf("%s:%d: %d values, want %d", rel, line, len(f), cols)
		}
		for _, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s:%d: %q is not a finite number", rel, line, s)
			}
			data = append(data, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: no data", rel)
	}
	if want, ok := knownRows[rel]; ok && len(data)/cols != want {
		return nil, fmt.Errorf("%s: %d rows, want %d (PROVENANCE.md)", rel, len(data)/cols, want)
	}
	return mat.NewDense(len(data)/cols, cols, data), nil
}
