package report

import (
	"fmt"
	"strings"
)

// A base config's run page shows its documented readings (the configs
// whose variant_of names it) when their runs are in the same
// results root: each reading's figures of the same names as the base's
// (Zheng & Lai's Fig. 2 under each noise reading), its paper table with
// the paper's values beside its own, and each one's reading fit to the
// printed table (Manifest.PaperFit), with a sentence naming the reading
// that fits the printed numbers clearly better than the stated protocol
// (FitsClearlyBetter).

// htmlReading is one reading of a base run, as its page shows it.
type htmlReading struct {
	Name, Href, Title, Anchor string
	Diagnostic                bool
	// Fit is the reading's fit to the printed table, "" without one.
	Fit string
	// Figures are the reading's figures named as the base's (sameFigure),
	// their links relative to the base's folder.
	Figures []htmlFigure
	// Table is the reading's paper table (the first of its tables.md),
	// nil without one.
	Table *htmlTable
}

// attachReadings gives each run of runs (the runs of one results root)
// the readings among them whose manifest's variant_of names it.
func attachReadings(runs []*htmlRun) {
	byName := map[string]*htmlRun{}
	for _, r := range runs {
		byName[r.Name] = r
	}
	for _, v := range runs {
		base, ok := byName[strings.TrimSuffix(v.Manifest.VariantOf, ".yaml")]
		if !ok || v.Manifest.VariantOf == "" || base == v {
			continue
		}
		base.Readings = append(base.Readings, readingOf(base, v))
	}
	for _, r := range runs {
		if len(r.Readings) == 0 {
			continue
		}
		r.OwnFit = fitText(r.Manifest.PaperFit)
		r.FitNote = fitNote(r, byName)
	}
}

// readingOf is v as a reading shown on base's page.
func readingOf(base, v *htmlRun) htmlReading {
	up := "../" + relURL(v.Name) + "/"
	rd := htmlReading{Name: v.Name, Href: up + "index.html", Title: v.Title, Anchor: "reading-" + v.Name,
		Diagnostic: v.Manifest.Diagnostic, Fit: fitText(v.Manifest.PaperFit)}
	for _, f := range v.Figures {
		if !sameFigure(f.Name, base.Figures) {
			continue
		}
		f.Anchor = rd.Anchor + "-" + f.Anchor
		f.Img, f.Link = up+f.Img, up+f.Link
		links := make([]htmlLink, len(f.Links))
		for i, l := range f.Links {
			links[i] = htmlLink{l.Text, up + l.Href}
		}
		f.Links = links
		rd.Figures = append(rd.Figures, f)
	}
	if len(v.Manifest.PaperFit) > 0 && len(v.Tables) > 0 {
		t := v.Tables[0]
		t.Anchor = rd.Anchor + "-table"
		rd.Table = &t
	}
	return rd
}

// sameFigure reports whether a reading's figure name is one of the base's
// figures: the same name, or the base's name with a suffix after "-", as
// a reading names its copy (fig2-images-clip for fig2-images).
func sameFigure(name string, base []htmlFigure) bool {
	for _, b := range base {
		if name == b.Name || strings.HasPrefix(name, b.Name+"-") {
			return true
		}
	}
	return false
}

// fitText is a run's fit to each part of the printed table, e.g.
// "median |ln(ours/paper)| 1.135 over 30 cells".
func fitText(fits []PaperFit) string {
	var ss []string
	for _, f := range fits {
		s := "no cell to compare"
		if f.Cells > 0 {
			s = fmt.Sprintf("median |ln(ours/paper)| %.3f over %d cell%s", f.Distance, f.Cells, plural1(f.Cells))
		}
		if f.Excluded > 0 {
			s += fmt.Sprintf(", %d excluded (a zero or opposite signs)", f.Excluded)
		}
		if f.Missing > 0 {
			s += fmt.Sprintf(", %d without a value of ours", f.Missing)
		}
		if f.Interpretation != "" {
			s = "read as " + f.Interpretation + ": " + s
			if !f.Supported {
				s += " (an interpretation the paper's text does not support)"
			}
		}
		if f.Part != "" {
			s = f.Part + ": " + s
		}
		ss = append(ss, s)
	}
	return strings.Join(ss, "; ")
}

func plural1(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// fitNote names, for each part of base's printed table, the reading (not
// diagnostic) that fits the paper's values clearly better than base,
// the closest if several do; "" when none does.
func fitNote(base *htmlRun, byName map[string]*htmlRun) string {
	var ss []string
	for i, bf := range base.Manifest.PaperFit {
		if !bf.Supported && bf.Interpretation != "" {
			// A reading is named only under an interpretation of the
			// printed unit that the paper's text supports.
			continue
		}
		best, bestFit := "", PaperFit{}
		for _, rd := range base.Readings {
			v := byName[rd.Name]
			if rd.Diagnostic || i >= len(v.Manifest.PaperFit) {
				continue
			}
			vf := v.Manifest.PaperFit[i]
			if vf.Interpretation != bf.Interpretation {
				continue
			}
			if FitsClearlyBetter(vf, bf) && (best == "" || vf.Distance < bestFit.Distance) {
				best, bestFit = rd.Name, vf
			}
		}
		if best == "" {
			continue
		}
		part := ""
		if bf.Part != "" {
			part = " (" + bf.Part + ")"
		}
		if bf.Interpretation != "" {
			part += " read as " + bf.Interpretation
		}
		ss = append(ss, fmt.Sprintf("The paper's printed values%s point to the reading %s: its median |ln(ours/paper)| is %.3f over %d cells against this config's %.3f over %d, a factor %.1f closer (a reading is named when it is at most 1/%d of the stated protocol's, both over at least %d cells).",
			part, best, bestFit.Distance, bestFit.Cells, bf.Distance, bf.Cells, bf.Distance/bestFit.Distance, FitFactor, FitMinCells))
	}
	return strings.Join(ss, " ")
}
