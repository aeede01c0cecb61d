package pagecheck

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Find returns the Chromium to drive: $RUNEXP_CHROMIUM when set, else the
// first of chromium, chromium-browser and google-chrome on the PATH, or ""
// when there is none.
func Find() string {
	if p := os.Getenv("RUNEXP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Pages returns the pages of a results root as runexp writes them, in
// this order: root/index.html, root/scoreboard.html when there is one,
// then the index.html of every subfolder that has one (the run pages and
// the indexes of --with folders), in name order, then the paper reports
// (reports/PAPER/report.html and its appendix.html, and those of any folder whose name begins
// "reports", such as the reports from baseline/ that make browser-check
// writes to reports-baseline) in name order, folder by folder. Folders whose names start
// with "." are skipped.
func Pages(root string) ([]string, error) {
	idx := filepath.Join(root, "index.html")
	if _, err := os.Stat(idx); err != nil {
		return nil, fmt.Errorf("pagecheck: %w", err)
	}
	pages := []string{idx}
	if fi, err := os.Stat(filepath.Join(root, "scoreboard.html")); err == nil && fi.Mode().IsRegular() {
		pages = append(pages, filepath.Join(root, "scoreboard.html"))
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("pagecheck: %w", err)
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name(), "index.html")
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			pages = append(pages, p)
		}
	}
	// The paper reports a suite writes (runexp report, internal/paperreport):
	// each article, then its appendix.
	reps, err := filepath.Glob(filepath.Join(root, "reports*", "*", "report.html"))
	if err != nil {
		return nil, fmt.Errorf("pagecheck: %w", err)
	}
	for _, p := range reps { // Glob sorts
		for _, page := range []string{p, filepath.Join(filepath.Dir(p), "appendix.html")} {
			if fi, err := os.Stat(page); err == nil && fi.Mode().IsRegular() {
				pages = append(pages, page)
			}
		}
	}
	return pages, nil
}

// ShotName is the screenshot file of page, a page of Pages(root): the
// page's folder inside root and file name joined by "--", e.g.
// "huang-table1--index.png", or "index.png" for the root's own index.
func ShotName(root, page string) string {
	rel, err := filepath.Rel(root, page)
	if err != nil {
		rel = filepath.Base(page)
	}
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".html")
	return strings.ReplaceAll(rel, "/", "--") + ".png"
}

// CheckRoot checks every page of the results root with b, writing a
// screenshot of each to shots (a folder; "" for none).
func (b *Browser) CheckRoot(ctx context.Context, root, shots string) ([]*Result, error) {
	pages, err := Pages(root)
	if err != nil {
		return nil, err
	}
	var rs []*Result
	for _, p := range pages {
		shot := ""
		if shots != "" {
			shot = filepath.Join(shots, ShotName(root, p))
		}
		r, err := b.Check(ctx, p, shot)
		if err != nil {
			return rs, fmt.Errorf("%s: %w", p, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}
