package figs

import (
	"reflect"
	"testing"
)

// TestExamples checks the split of an examples array into a grid row:
// whole images in order, nil for those the array is too short to hold
// (a partial last image included).
func TestExamples(t *testing.T) {
	ex := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		n    int
		want [][]float64
	}{
		{0, nil},
		{1, [][]float64{{1, 2}}},
		{2, [][]float64{{1, 2}, {3, 4}}},
		{4, [][]float64{{1, 2}, {3, 4}, nil, nil}},
	} {
		if got := Examples(ex, tc.n, 2); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Examples(%v, %d, 2) = %v, want %v", ex, tc.n, got, tc.want)
		}
	}
	if got := Examples(nil, 2, 3); !reflect.DeepEqual(got, [][]float64{nil, nil}) {
		t.Errorf("Examples(nil, 2, 3) = %v, want two blanks", got)
	}
}
