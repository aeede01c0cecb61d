package robust

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// results indexes a kind's records by method label and energy.
type results struct {
	recs     []report.Record
	labels   []string
	energies []float64
}

// find returns the first record of label and energy e (the tables), last
// the last one (the figures): with one record per pair they agree.
func (rs *results) find(label string, e float64) *report.Record {
	for i := range rs.recs {
		if rs.is(i, label, e) {
			return &rs.recs[i]
		}
	}
	return nil
}

func (rs *results) last(label string, e float64) *report.Record {
	for i := len(rs.recs) - 1; i >= 0; i-- {
		if rs.is(i, label, e) {
			return &rs.recs[i]
		}
	}
	return nil
}

func (rs *results) is(i int, label string, e float64) bool {
	return rs.recs[i].Method() == label && common.Param(&rs.recs[i], "energy") == e
}

func cellText(r *report.Record, mean, std report.Metric) string {
	if r == nil {
		return "—"
	}
	if r.Status == report.StatusFailed {
		return "failed"
	}
	return report.FormatFloat(r.Get(mean), 3) + " ± " + report.FormatFloat(r.Get(std), 3)
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	rs := &results{recs: recs, labels: common.Labels(recs, "method"), energies: common.Values(recs, "energy")}
	if in.conds[0].test.region != nil {
		in.occlusionTables(out, rs)
	} else {
		in.noiseTable(out, rs)
	}
	if len(in.opt.tunes) > 0 {
		out.Tables = append(out.Tables, in.tuneTable(recs))
	}
	return in.images(out, rs)
}

// splitText describes the subject-disjoint split for the captions.
func (in *instance) splitText() string {
	names := []string{"train", "validation", "test"}
	var sp []string
	for s := 0; s < 3; s++ {
		sp = append(sp, fmt.Sprintf("%s %d images of %d subjects (target %d)", names[s], in.counts[s], in.subjects[s], in.opt.split[s]))
	}
	return "Subject-disjoint split: " + strings.Join(sp, ", ") + "."
}

// occlusionTables adds the occlusion sizes and, per energy, Fig. 5's
// region-wise errors.
func (in *instance) occlusionTables(out *runner.Output, rs *results) {
	splitText := in.splitText()
	st := &report.Table{Title: "Occlusion sizes: the paper's and ours (same share of the face)",
		Caption: fmt.Sprintf("Our images are %d×%d; the paper's fraction is its Base Line whole-face / occluded-region error (our reading of how the paper sized its occlusions). %s", in.set.Width, in.set.Height, splitText),
		Header:  []string{"paper side (px)", "paper fraction", "our side (px)", "our fraction"}}
	for _, c := range in.conds {
		st.Rows = append(st.Rows, []string{fmt.Sprint(c.paperSide), report.FormatFloat(c.paperFrac, 3), fmt.Sprint(c.side),
			report.FormatFloat(float64(c.side*c.side)/float64(in.set.Width*in.set.Height), 3)})
	}
	out.Tables = append(out.Tables, st)
	for _, e := range rs.energies {
		t := &report.Table{
			Title:   fmt.Sprintf("Fig. 5 (energy %s): mean absolute difference (0–255) to the clean face, mean ± std over %d test images", report.FormatFloat(100*e, 3)+"%", in.counts[2]),
			Caption: splitText + " Base Line is the occluded input itself.",
			Header:  append([]string{"paper size (our side)", "region"}, rs.labels...),
		}
		for _, c := range in.conds {
			for _, reg := range []struct{ key, name string }{{"whole", "whole face"}, {"occ", "occluded"}, {"nonocc", "non-occluded"}} {
				row := []string{fmt.Sprintf("%d (%d)", c.paperSide, c.side), reg.name}
				for _, l := range rs.labels {
					row = append(row, cellText(rs.find(l, e), errMean(reg.key, c.name), errStd(reg.key, c.name)))
				}
				t.Rows = append(t.Rows, row)
			}
		}
		out.Tables = append(out.Tables, t)
	}
}

// noiseTable adds Table 2: the whole-image error per energy and method.
func (in *instance) noiseTable(out *runner.Output, rs *results) {
	t := &report.Table{
		Title:   fmt.Sprintf("Long form: mean absolute difference (0–255) to the clean face, mean ± std over %d test images", in.counts[2]),
		Caption: in.splitText() + " Noise: " + in.env.Config.Corruption.Printed + ". Base Line is the noisy input itself.",
		Header:  append([]string{"energy"}, rs.labels...),
	}
	for _, e := range rs.energies {
		row := []string{report.FormatFloat(100*e, 3) + "%"}
		for _, l := range rs.labels {
			row = append(row, cellText(rs.find(l, e), errMean("mae", ""), errStd("mae", "")))
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)
}

// tuneTable lists the parameters chosen on the validation set.
func (in *instance) tuneTable(recs []report.Record) *report.Table {
	t := &report.Table{Title: "Parameters chosen on the validation set", Caption: "Smallest mean whole-image error on the corrupted validation images (all corruption sizes together).",
		Header: []string{"method", "energy", "chosen", "validation error", "grid points"}}
	for i := range recs {
		r := &recs[i]
		if _, ok := in.opt.tunes[r.Method()]; !ok || r.Status == report.StatusFailed {
			continue
		}
		var keys []string
		for k := range r.Metrics {
			if strings.HasPrefix(k, tunedPrefix) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, strings.TrimPrefix(k, tunedPrefix)+"="+report.FormatFloat(r.Metrics[k], 4))
		}
		t.Rows = append(t.Rows, []string{r.Method(), report.FormatFloat(common.Param(r, "energy"), 3),
			strings.Join(parts, ", "), report.FormatFloat(r.Get(ValWholeMean), 4), fmt.Sprint(len(r.Arrays["tune_val_error"]))})
	}
	return t
}

// inputLabels returns the labels of the config's methods that return their
// input (the identity, the paper's Base Line): their output is the
// corrupted row the figures already show. The default label is the
// estimator's title in the registry.
func (in *instance) inputLabels() map[string]bool {
	skip := map[string]bool{}
	id, ok := methods.Lookup("identity")
	if !ok {
		return skip
	}
	for i := range in.env.Config.Methods {
		if m := &in.env.Config.Methods[i]; m.Name == id.Name {
			skip[methodLabel(m)] = true
		}
	}
	return skip
}

// images draws, per energy and corruption, the example test faces: clean,
// corrupted and every method's reconstruction (the paper's Figs. 1 and 6).
func (in *instance) images(out *runner.Output, rs *results) error {
	if len(in.exRows) == 0 {
		return nil
	}
	skip := in.inputLabels()
	for _, e := range rs.energies {
		for ci := range in.conds {
			g := in.imageGrid(rs, skip, e, ci)
			name := fmt.Sprintf("%s-e%d%s", in.opt.figureName, int(math.Round(100*e)), suffix(in.conds[ci].name))
			files, err := g.Save(out.Path(name))
			out.Add(files...)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// imageGrid is the figure of energy e and condition ci.
func (in *instance) imageGrid(rs *results, skip map[string]bool, e float64, ci int) *report.ImageGrid {
	c := &in.conds[ci]
	w, h := in.set.Width, in.set.Height
	d := w * h
	n, _ := in.test.Dims()
	scale := figs.PixelRange(in.test)
	what := ", noise " + in.env.Config.Corruption.Printed + " on " + scale
	if c.test.region != nil {
		what = fmt.Sprintf(", occlusion %d px (paper %d)", c.side, c.paperSide)
	}
	g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 64/max(w, h)), Lo: 0, Hi: 255,
		Title: fmt.Sprintf("energy %s%s", report.FormatFloat(100*e, 3)+"%", what)}
	var orig, cor [][]float64
	for _, i := range in.exRows {
		orig = append(orig, in.test.RawRowView(i))
		cor = append(cor, in.testX.RawRowView(ci*n+i))
	}
	g.Images = [][][]float64{orig, cor}
	g.RowLabels = []string{"original", "corrupted"}
	g.Caption = figs.Caption(in.env.Config, fmt.Sprintf("example test faces (columns) at energy %s%s: original, corrupted, and each estimator's reconstruction (rows)", report.FormatFloat(100*e, 3)+"%", what), figs.PixelScale(in.test))
	for _, l := range rs.labels {
		r := rs.last(l, e)
		if r == nil || skip[l] {
			continue
		}
		g.Images = append(g.Images, figs.Examples(r.Arrays["examples"+suffix(c.name)], len(in.exRows), d))
		g.RowLabels = append(g.RowLabels, l)
	}
	return g
}
