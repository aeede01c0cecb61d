package report

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestCaptionString(t *testing.T) {
	for _, tc := range []struct {
		c    Caption
		want string
	}{
		{Caption{}, ""},
		{Caption{Figure: "A & B (2011) Fig. 3"}, "A & B (2011) Fig. 3."},
		{Caption{Figure: "A (2011) Fig. 4.", Shows: "bands", Reading: "noise variance 0.25", Source: "config x"},
			"A (2011) Fig. 4. Bands. Reading: noise variance 0.25. Config x."},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestCaptionEmbedded: Figure.Save and ImageGrid.Save embed the caption in
// both files, ReadCaption reads it back, the PNG still decodes, and the
// run page shows it under the figure.
func TestCaptionEmbedded(t *testing.T) {
	dir := t.TempDir()
	writeFakeRun(t, dir, "Run", nil)
	const want = "Test (2024) Fig. 1. Two rings and their pre-images. Reading: none. Config test."
	fig := scatterFigure(LegendRight, [2]color.Color{testBlue, testOrange})
	grid := goldenGrid()
	grid.Caption = fig.Caption
	for name, save := range map[string]func(string) ([]string, error){"fig": fig.Save, "grid": grid.Save} {
		files, err := save(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			got, err := ReadCaption(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: caption %q, want %q", file, got, want)
			}
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s with a caption chunk does not decode: %v", files[0], err)
		}
		sv, err := os.ReadFile(files[1])
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(sv))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("%s with a <desc> is not well-formed XML: %v", files[1], err)
				break
			}
		}
	}
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The caption opens the figure's caption, after the note that says
	// it is a thumbnail where it is one.
	if n := len(regexp.MustCompile(`<figcaption>(<span class="thumb-note">.*?</span>)?Test \(2024\) Fig\. 1\.`).FindAllString(string(page), -1)); n != 2 {
		t.Errorf("run page shows the caption under %d figures, want 2", n)
	}
}

func TestReadCaptionNone(t *testing.T) {
	dir := t.TempDir()
	files, err := SavePlot(testPlot(), 200, 100, filepath.Join(dir, "p"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if got, err := ReadCaption(f); err != nil || got != "" {
			t.Errorf("%s: caption %q, %v; want none", f, got, err)
		}
	}
}
