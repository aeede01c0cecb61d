package report

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseRich(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []textRun
	}{
		{"P_t", []textRun{{S: "P"}, {S: "t", Sub: true}}},
		{"P_i (α_i)", []textRun{{S: "P"}, {S: "i", Sub: true}, {S: " (α"}, {S: "i", Sub: true}, {S: ")"}}},
		{"x_{10} y", []textRun{{S: "x"}, {S: "10", Sub: true}, {S: " y"}}},
		{"lasso_gps", []textRun{{S: "lasso_gps"}}},
		// Identifiers keep their underscores even where a one-character
		// part follows (issue 13): only a one-letter base takes a subscript.
		{"metric mse_raw_median.", []textRun{{S: "metric mse_raw_median."}}},
		{"fig6_a, table1_b", []textRun{{S: "fig6_a, table1_b"}}},
		{"config zheng-lai-table1_clip", []textRun{{S: "config zheng-lai-table1_clip"}}},
		{"lpkpca_l0.05_k3", []textRun{{S: "lpkpca_l0.05_k3"}}},
		{"a_b_c", []textRun{{S: "a_b_c"}}},
		{"_x", []textRun{{S: "_x"}}},
		{"(x_0)", []textRun{{S: "(x"}, {S: "0", Sub: true}, {S: ")"}}},
		{"a_", []textRun{{S: "a_"}}},
		{"a_{b", []textRun{{S: "a_{b"}}},
		{"", nil},
	} {
		if got := parseRich(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseRich(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestImageGridLabelsDoNotOverlap: no two label boxes of a grid overlap,
// and no label reaches into the images, for the labels that used to.
func TestImageGridLabelsDoNotOverlap(t *testing.T) {
	g := goldenGrid()
	l := g.layout()
	type box struct{ x0, x1, y0, y1 float64 }
	faces := newRichFaces(g.fontSize())
	ext := faces.main.Extents()
	var boxes []box
	for _, tx := range l.texts {
		x := tx.X
		switch tx.Anchor {
		case "middle":
			x -= tx.Width / 2
		case "end":
			x -= tx.Width
		}
		boxes = append(boxes, box{x, x + tx.Width, tx.Y - float64(ext.Ascent), tx.Y + float64(ext.Descent)})
		if tx.Anchor == "end" && x+tx.Width > float64(l.x0) {
			t.Errorf("row label %q ends at %g, inside the images at %d", runsString(tx.Runs), x+tx.Width, l.x0)
		}
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 {
				t.Errorf("labels %q and %q overlap", runsString(l.texts[i].Runs), runsString(l.texts[j].Runs))
			}
		}
	}
	// Unkerned: a label's width is the sum of its glyphs' advances.
	f := newRichFaces(12)
	var sum float64
	for _, r := range "Kwok-Tsang" {
		sum += float64(f.main.Width(string(r)))
	}
	if w := f.width(parseRich("Kwok-Tsang")); w != sum {
		t.Errorf("width of Kwok-Tsang %g, want the sum of advances %g", w, sum)
	}
	if k := float64(f.main.Width("Kwok-Tsang")); k >= sum {
		t.Logf("kerned width %g not below unkerned %g: the font no longer kerns these pairs", k, sum)
	}
}

func runsString(rs []textRun) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.S)
	}
	return b.String()
}
