package catalog

import (
	"fmt"
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

// The original Yale B's option cases join TestDatasetOptions' list.
func init() {
	optionCases = append(optionCases, []struct{ name, opts, want string }{
		{"yaleb-orig", "", ""},
		{"yaleb-orig", ", subsets: [1, 5], width: 30, height: 40", ""},
		{"yaleb-orig", ", subsets: [0]", "want integers in [1, 5]"},
		{"yaleb-orig", ", subjects: [1]", "subjects"},
		{"yaleb-orig", ", width: 30", "give both width and height"},
	}...)
}

// TestYaleBOrigDefaults: every subset by default, and the shape is the
// exact image count, 10 subjects × the lightings of the subsets (7 + 19
// for subsets 1 and 5).
func TestYaleBOrigDefaults(t *testing.T) {
	o, err := yalebOrigOptions(parseDataset(t, "yaleb-orig", "").Dataset.Options)
	if err != nil || fmt.Sprint(o.Subsets) != "[1 2 3 4 5]" || o.Width != 0 {
		t.Errorf("yaleb-orig defaults: %+v, %v", o, err)
	}
	o, err = yalebOrigOptions(parseDataset(t, "yaleb-orig", ", subsets: [1, 5], width: 30, height: 40").Dataset.Options)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := yalebOrigShape(o), (runner.Shape{Points: 260, Dim: 1200}); got != want {
		t.Errorf("shape %+v, want %+v", got, want)
	}
}
