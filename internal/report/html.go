package report

import (
	"github.com/runexp/runexp/internal/safefs"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Claim verdicts as written to claims.json by the claims package, which
// imports this one (so its constants cannot be used here).
const (
	verdictPass         = "PASS"
	verdictFail         = "FAIL"
	verdictNotEvaluated = "NOT-EVALUATED"
	verdictInconclusive = "INCONCLUSIVE"
)

// claimJSON is one element of claims.json (claims.Result).
type claimJSON struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Source    string `json:"source"`
	Status    string `json:"status"`
	Evidence  string `json:"evidence"`
	// Expected and AsExpected are the config's expectation and whether
	// the verdict met it; claims.json files written before expectations
	// lack them, and their verdicts other than PASS count as unexpected.
	Expected   string `json:"expected,omitempty"`
	Because    string `json:"because,omitempty"`
	AsExpected *bool  `json:"as_expected,omitempty"`
	// The verdict of the point estimate alone and the interval the
	// verdict rests on, when the check has one.
	PointVerdict string   `json:"point_verdict,omitempty"`
	CILo         *float64 `json:"ci_lo,omitempty"`
	CIHi         *float64 `json:"ci_hi,omitempty"`
	CILevel      float64  `json:"ci_level,omitempty"`
	CIMethod     string   `json:"ci_method,omitempty"`
}

// unexpected reports whether a claim's verdict is not the expected one.
func (c claimJSON) unexpected() bool {
	if c.AsExpected != nil {
		return !*c.AsExpected
	}
	return c.Status != verdictPass
}

// readClaims reads dir/claims.json; a missing file is no claims and ok is
// false.
func readClaims(dir string) (cl []claimJSON, ok bool, err error) {
	path := filepath.Join(dir, "claims.json")
	b, err := safefs.ReadFileIn(dir, path, MaxJSONBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("report: %w", err)
	}
	if err := json.Unmarshal(b, &cl); err != nil {
		return nil, false, fmt.Errorf("report: %s: %w", path, err)
	}
	return cl, true, nil
}

// WriteIndex writes static HTML pages that browse the results under root:
// root/index.html, one row per run, and <run>/index.html for every run
// directory, an immediate subdirectory of root holding a manifest.json.
// Directories whose names start with "." are skipped. A subdirectory that
// is no run directory but a results root of runs with estimators added on
// the command line (runexp --with writes them to OUT/with-SLUG: run
// directories whose manifests list the specs, and its own index.html) is
// linked from root/index.html with its specs and run count, in name
// order; its pages are its own index's to write. When root itself holds
// a manifest.json it is taken as a single run directory: only its own page
// is written, as root/index.html.
//
// A run page shows the title and notes of tables.md, every table of
// tables.md (parsed back from its GitHub Markdown), the claims of
// claims.json with their verdicts coloured (once: the claims table of
// tables.md, which repeats them, is left out when claims.json exists),
// every figure (a NAME.png shown inline and linking to NAME.svg; a lone
// NAME.svg shown itself) with the caption embedded in it, links to
// the records, tables, claims and manifest files that exist, and a
// provenance line from manifest.json. Missing tables.md or claims.json
// leave their sections out; a malformed manifest.json or claims.json is an
// error naming the file.
//
// The pages are HTML5 without scripts, written as well-formed XML (every
// element closed, attributes quoted), with relative links only. They
// depend only on the files read — no clock, no absolute path — so calling
// WriteIndex twice on the same results writes identical bytes. Each page is
// written with [WriteFileAtomic]. The index.html files are not listed in
// the manifests.
func WriteIndex(root string) error { return WriteIndexUp(root, "") }

// WriteIndexUp is [WriteIndex] for a results root inside another (runexp
// --with writes into OUT/with-SLUG): the root's page links back to the
// enclosing index at up, a URL relative to root such as "../index.html".
// An empty up links nowhere.
func WriteIndexUp(root, up string) error { return WriteIndexWith(root, IndexOptions{Up: up}) }

// WriteIndexWith is [WriteIndexUp] with the papers' headlines on the
// root's page (IndexOptions).
func WriteIndexWith(root string, o IndexOptions) error {
	up := o.Up
	fi, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("report: index: %s is not a directory", root)
	}
	if isRegular(filepath.Join(root, "manifest.json")) {
		r, err := loadRun(root, filepath.Base(filepath.Clean(root)), "")
		if err != nil {
			return err
		}
		return writeTemplate(filepath.Join(root, "index.html"), "run", r)
	}
	ents, err := os.ReadDir(root) // sorted by name
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	idx := &htmlRoot{Up: up}
	for _, e := range ents {
		name := e.Name()
		dir := filepath.Join(root, name)
		// A real folder only: one reached through a link lies outside
		// the results (it gets no page written into it, and nothing of
		// it is read).
		if strings.HasPrefix(name, ".") || !isRealDir(dir) {
			continue
		}
		if !isRegular(filepath.Join(dir, "manifest.json")) {
			w, err := loadWithRoot(dir, name)
			if err != nil {
				return err
			}
			if w != nil {
				idx.With = append(idx.With, w)
			}
			continue
		}
		r, err := loadRun(dir, name, "../index.html")
		if err != nil {
			return err
		}
		idx.Runs = append(idx.Runs, r)
		for _, a := range r.Added {
			if !strings.HasPrefix(a.Ran, "skipped") && !slices.Contains(idx.Added, a) {
				idx.Added = append(idx.Added, a)
			}
		}
		idx.Cells += r.Manifest.Cells
		idx.Failed += r.Manifest.Failed
		idx.Counts.add(r.Counts)
	}
	// A base's page shows its readings, which may sort after it.
	attachReadings(idx.Runs)
	for _, r := range idx.Runs {
		if err := writeTemplate(filepath.Join(root, r.Name, "index.html"), "run", r); err != nil {
			return err
		}
	}
	idx.Scoreboard = isRegular(filepath.Join(root, "scoreboard.html"))
	if reps, err := filepath.Glob(filepath.Join(root, "reports", "*", "report.html")); err == nil {
		for _, p := range reps { // Glob sorts
			if isRegular(p) {
				idx.Reports = append(idx.Reports, filepath.Base(filepath.Dir(p)))
			}
		}
	}
	idx.Papers = indexPapers(o.Papers, idx.Scoreboard, idx.Reports)
	return writeTemplate(filepath.Join(root, "index.html"), "root", idx)
}

func isRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// isRealDir reports whether path is a folder and not a link to one.
func isRealDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// relURL joins path segments into a relative URL, escaping each segment so
// that a directory or figure name holding '#', '?' or '%' still resolves. A
// colon in the first segment would read as a URL scheme, hence the "./".
func relURL(segs ...string) string {
	esc := make([]string, len(segs))
	for i, s := range segs {
		esc[i] = url.PathEscape(s)
	}
	u := strings.Join(esc, "/")
	if strings.Contains(esc[0], ":") {
		u = "./" + u
	}
	return u
}

// htmlRoot is the data of root/index.html.
type htmlRoot struct {
	Up            string // link to the enclosing index, or ""
	Runs          []*htmlRun
	Cells, Failed int
	Counts        claimCounts
	// Scoreboard is set when the root holds scoreboard.html (runexp
	// suite writes it: the claims under the stated protocol and the readings).
	Scoreboard bool
	// With lists the results roots of runs with estimators added on the
	// command line (runexp --with: OUT/with-SLUG), in name order.
	With []*htmlWithRoot
	// Reports names the papers with a reproduction report
	// (reports/PAPER/report.html, runexp report), in name order.
	Reports []string
	// Added are the estimators its runs added on the command line
	// (runexp --with), each spec once per set of parameters that ran.
	Added []AddedRow
	// Papers are the papers' headlines (IndexOptions.Papers).
	Papers []indexPaper
}

// htmlWithRoot is a results root below the root whose runs were made with
// estimators added on the command line, linked from the root index.
type htmlWithRoot struct {
	Name string   // directory name
	Href string   // relURL(Name)
	Runs int      // its run directories
	Spec []string // the --with specs as given, in the order first met
}

// loadWithRoot returns the row of the root index for dir, a subdirectory
// of the root that is no run directory, when dir is a results root of
// --with runs: it holds an index.html (a link must lead somewhere) and
// run directories whose manifests list added estimators. Otherwise it
// returns nil. Runs and their specs are read in name order, so the row
// is the same whatever order the runs were made in.
func loadWithRoot(dir, name string) (*htmlWithRoot, error) {
	if !isRegular(filepath.Join(dir, "index.html")) {
		return nil, nil
	}
	ents, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	w := &htmlWithRoot{Name: name, Href: relURL(name)}
	for _, e := range ents {
		mpath := filepath.Join(dir, e.Name(), "manifest.json")
		if strings.HasPrefix(e.Name(), ".") || !isRealDir(filepath.Join(dir, e.Name())) || !isRegular(mpath) {
			continue
		}
		m, err := ReadManifest(filepath.Join(dir, e.Name()), mpath)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		w.Runs++
		for _, ws := range m.With {
			if !slices.Contains(w.Spec, ws.Spec) {
				w.Spec = append(w.Spec, ws.Spec)
			}
		}
	}
	if len(w.Spec) == 0 {
		return nil, nil
	}
	return w, nil
}

// htmlRun is the data of one run page and of its row in the root index.
type htmlRun struct {
	Name  string // directory name
	Href  string // relURL(Name)
	Up    string // link to the root index, or ""
	Title string
	Notes []string
	// Tables are those of tables.md in its order: the first, the paper's
	// own layout where the kind writes one, heads the page; the others
	// follow the claims, each folded.
	Tables []htmlTable

	HasClaims bool
	Claims    []htmlClaim
	Counts    claimCounts

	Figures []htmlFigure
	Files   []htmlLink

	Manifest   Manifest
	Provenance string
	Wall       string
	// Added are the estimators added on the command line (runexp
	// --with), from the manifest: each one's spec and parameters.
	Added []AddedRow

	// Readings are the runs of the same results root that read this
	// config another way (readings.go); OwnFit is this run's fit to the
	// printed table and FitNote the sentence naming a reading that fits
	// it clearly better, both "" without readings.
	Readings        []htmlReading
	OwnFit, FitNote string
}

// claimCounts counts a run's claims once each: by verdict when the verdict
// is the one its config expects, and otherwise as unexpected, so that an
// expected non-reproduction (FAIL as expected) never reads as breakage and
// a change always does.
type claimCounts struct {
	Claims int
	// Pass, Fail, Inconclusive and NotEvaluated count the claims whose
	// verdict is as expected.
	Pass, Fail, Inconclusive, NotEvaluated int
	// Unexpected counts the claims whose verdict is not the expected one,
	// whatever it is.
	Unexpected int
}

func (c *claimCounts) add(d claimCounts) {
	c.Claims += d.Claims
	c.Pass += d.Pass
	c.Fail += d.Fail
	c.Inconclusive += d.Inconclusive
	c.NotEvaluated += d.NotEvaluated
	c.Unexpected += d.Unexpected
}

func (c *claimCounts) count(cl claimJSON) {
	c.Claims++
	switch {
	case cl.unexpected():
		c.Unexpected++
	case cl.Status == verdictPass:
		c.Pass++
	case cl.Status == verdictFail:
		c.Fail++
	case cl.Status == verdictInconclusive:
		c.Inconclusive++
	default:
		c.NotEvaluated++
	}
}

// htmlClaim is one row of a run page's claims: the id, the verdict, the
// expectation and the statement, with the evidence, the interval, the
// reason for the expectation and the source in a fold under it.
type htmlClaim struct {
	claimJSON
	Anchor       string // the row's id, claimAnchor(ID)
	Class        string // the verdict cell's CSS class
	Expect       string // "as expected", "expected: fail", "not as expected (expected: pass)"
	Unexpected   bool
	Interval     string // "95% interval [lo, hi]: method", or ""
	PointDiffers bool   // the point estimate alone gives another verdict
}

// claimAnchor is the id of a claim's row on its run page, the target of
// the links of the index and the scoreboard.
func claimAnchor(id string) string { return "claim-" + id }

func newHTMLClaim(c claimJSON) htmlClaim {
	h := htmlClaim{claimJSON: c, Anchor: claimAnchor(c.ID), Unexpected: c.unexpected()}
	// The expectation as the config states it: expect: fail, expect:
	// inconclusive (claims.json's NOT-EVALUATED, met by INCONCLUSIVE
	// too), or nothing for PASS.
	exp := "pass"
	switch c.Expected {
	case verdictFail:
		exp = "fail"
	case verdictNotEvaluated, verdictInconclusive:
		exp = "inconclusive"
	}
	h.Class = verdictClass(c.Status)
	switch {
	case h.Unexpected:
		h.Class = "unexpected"
		h.Expect = "not as expected (expected: " + exp + ")"
	case c.Status == verdictFail:
		// A non-reproduction the config expects: a failure of the
		// paper's claim, not an alarm about the run.
		h.Class = "known"
		h.Expect = "expected: fail"
	case exp != "pass":
		h.Expect = "expected: " + exp
	default:
		h.Expect = "as expected"
	}
	if c.CILo != nil && c.CIHi != nil {
		lvl := c.CILevel
		if lvl > 0 && lvl <= 1 {
			lvl *= 100
		}
		var b strings.Builder
		if lvl > 0 {
			b.WriteString(strconv.FormatFloat(lvl, 'g', 4, 64) + "% ")
		}
		fmt.Fprintf(&b, "interval [%s, %s]", strconv.FormatFloat(*c.CILo, 'g', 4, 64), strconv.FormatFloat(*c.CIHi, 'g', 4, 64))
		if c.CIMethod != "" {
			b.WriteString(": " + c.CIMethod)
		}
		h.Interval = b.String()
	}
	h.PointDiffers = c.PointVerdict != "" && c.PointVerdict != c.Status
	return h
}

type htmlFigure struct {
	Name, Img, Link string
	Anchor          string // the figure's id on the page
	// Caption is the caption embedded in the figure's files by
	// Figure.Save or ImageGrid.Save, as text runs (subscripts apart): the
	// page is where it is read, the files carry it only as metadata.
	Caption []textRun
	Links   []htmlLink
	// TextPx is the height of the PNG's smallest label in its own pixels
	// ("" when it does not say: an SVG, a PNG of another writer); Thumb
	// marks a PNG so wide that the page's 80em column would shrink that
	// label under 9 CSS pixels: it is shown as a thumbnail that links to
	// the full image, and says so, W and H giving its size.
	TextPx string
	Thumb  bool
	W, H   int
	// Class is the figure's class (FigureClass): a thumbnail, or the
	// window width below which its note says it is one.
	Class string
}

type htmlLink struct{ Text, Href string }

type htmlTable struct {
	Anchor  string // "table-1", "table-2", … in tables.md's order
	Class   string // "dense" for a table too wide for the page at full size
	Title   string
	Header  []htmlCell
	Rows    [][]htmlCell
	Caption []string // paragraphs
}

// htmlCell is a table cell; Lines are joined with <br />.
type htmlCell struct {
	Lines []string
	Class string
}

// verdictClass is the CSS class of a claim verdict.
func verdictClass(s string) string {
	switch s {
	case verdictPass:
		return "pass"
	case verdictFail:
		return "fail"
	case verdictInconclusive:
		return "inc"
	case verdictNotEvaluated:
		return "ne"
	}
	return ""
}

// loadRun reads the files of one run directory.
func loadRun(dir, name, up string) (*htmlRun, error) {
	r := &htmlRun{Name: name, Href: relURL(name), Up: up, Title: name}

	// Every file is read inside the run's folder: a link among them
	// leading elsewhere is refused, naming it.
	m, err := ReadManifest(dir, filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	r.Manifest = *m
	r.Wall = strconv.FormatFloat(r.Manifest.WallSeconds, 'f', 1, 64)
	r.Provenance = provenance(&r.Manifest)
	r.Added = AddedRows(r.Manifest.With)

	md, err := safefs.ReadFileIn(dir, filepath.Join(dir, "tables.md"), MaxJSONBytes)
	switch {
	case err == nil:
		doc := parseTablesMarkdown(string(md))
		if doc.Title != "" {
			r.Title = doc.Title
		}
		r.Notes = doc.Notes
		for _, t := range doc.Tables {
			r.Tables = append(r.Tables, toHTMLTable(t))
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("report: %w", err)
	}

	cl, ok, err := readClaims(dir)
	if err != nil {
		return nil, err
	}
	r.HasClaims = ok
	if ok {
		r.Tables = withoutClaimsTable(r.Tables)
	}
	for i := range r.Tables {
		r.Tables[i].Anchor = "table-" + strconv.Itoa(i+1)
	}
	for _, c := range cl {
		r.Counts.count(c)
		r.Claims = append(r.Claims, newHTMLClaim(c))
	}

	have, figs, err := resultFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range figs {
		fig, err := loadFigure(dir, f, have)
		if err != nil {
			return nil, err
		}
		fitFigure(&fig)
		r.Figures = append(r.Figures, fig)
	}
	thumbsLast(r.Figures)
	for _, f := range []struct{ file, text string }{
		{"records.jsonl", "records (JSON Lines)"},
		{"records.csv", "records (CSV)"},
		{"tables.md", "tables (Markdown)"},
		{"tables.txt", "tables (text)"},
		{"claims.json", "claims (JSON)"},
		{"manifest.json", "manifest"},
	} {
		if have[f.file] {
			r.Files = append(r.Files, htmlLink{Text: f.text, Href: relURL(f.file)})
		}
	}
	return r, nil
}

// resultFiles lists the regular files of a result folder (have) and its
// figures by base name, sorted.
func resultFiles(dir string) (have map[string]bool, figs []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("report: %w", err)
	}
	have = map[string]bool{}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !e.Type().IsRegular() {
			continue // temporary files of WriteFileAtomic, subdirectories
		}
		have[n] = true
		if ext := filepath.Ext(n); ext == ".png" || ext == ".svg" {
			figs = append(figs, strings.TrimSuffix(n, ext))
		}
	}
	slices.Sort(figs)
	return have, slices.Compact(figs), nil
}

// thumbsLast moves the thumbnails (figures too large to read in place,
// e.g. a grid of every panel) after the figures that read at the page's
// width, keeping each group's order.
func thumbsLast(figs []htmlFigure) {
	slices.SortStableFunc(figs, func(a, b htmlFigure) int {
		switch {
		case a.Thumb == b.Thumb:
			return 0
		case a.Thumb:
			return 1
		}
		return -1
	})
}

// loadFigure is the figure f of a result folder: its caption (from the
// PNG, else the SVG) and links to the files it has.
func loadFigure(dir, f string, have map[string]bool) (htmlFigure, error) {
	fig := htmlFigure{Name: f, Anchor: "figure-" + f}
	png, svg := have[f+".png"], have[f+".svg"]
	capFile := f + ".svg"
	if png {
		capFile = f + ".png"
	}
	if png {
		// The head alone: a figure of any size costs a few reads.
		h, err := ReadPNGHead(filepath.Join(dir, capFile))
		if err != nil {
			return fig, err
		}
		fig.Caption = parseRich(h.Caption)
		if h.W > 0 && h.H > 0 {
			fig.W, fig.H = h.W, h.H
			if h.TextPx > 0 {
				fig.TextPx = strconv.FormatFloat(h.TextPx, 'f', 1, 64)
				fig.Thumb = float64(columnPx)/float64(h.W)*h.TextPx < minLabelPx
			}
		}
	} else {
		caption, err := ReadCaption(filepath.Join(dir, capFile))
		if err != nil {
			return fig, err
		}
		fig.Caption = parseRich(caption)
	}
	switch {
	case png && svg:
		fig.Img, fig.Link = relURL(f+".png"), relURL(f+".svg")
		fig.Links = []htmlLink{{"SVG", fig.Link}, {"PNG", fig.Img}}
	case png:
		fig.Img, fig.Link = relURL(f+".png"), relURL(f+".png")
		fig.Links = []htmlLink{{"PNG", fig.Img}}
	default:
		fig.Img, fig.Link = relURL(f+".svg"), relURL(f+".svg")
		fig.Links = []htmlLink{{"SVG", fig.Img}}
	}
	return fig, nil
}

// claimsHeader begins the header of the claims table the runner writes to
// tables.md; the run page shows claims.json instead, with sources.
var claimsHeader = []string{"Claim", "Verdict"}

// withoutClaimsTable drops the tables of tables.md that repeat
// claims.json, so that a run page shows its claims once.
func withoutClaimsTable(ts []htmlTable) []htmlTable {
	out := ts[:0]
	for _, t := range ts {
		same := len(t.Header) >= len(claimsHeader)
		for j := 0; same && j < len(claimsHeader); j++ {
			same = len(t.Header[j].Lines) == 1 && t.Header[j].Lines[0] == claimsHeader[j]
		}
		if !same {
			out = append(out, t)
		}
	}
	return out
}

// provenance summarises a manifest in one line.
func provenance(m *Manifest) string {
	rev := m.Revision
	if rev == "" {
		rev = "unknown"
	}
	if m.Modified {
		rev += " (modified)"
	}
	parts := []string{"revision " + rev}
	if m.Version != "" && m.Version != "unknown" && m.Version != "(devel)" {
		parts = append(parts, "version "+m.Version)
	}
	if m.GoVersion != "" {
		p := m.GoVersion
		if m.GOOS != "" {
			p += " " + m.GOOS + "/" + m.GOARCH
		}
		parts = append(parts, p)
	}
	if m.Config != "" {
		parts = append(parts, "config "+m.Config)
	}
	if !m.Start.IsZero() {
		parts = append(parts, "started "+m.Start.UTC().Truncate(time.Second).Format(time.RFC3339))
	}
	parts = append(parts,
		strconv.FormatFloat(m.WallSeconds, 'f', 1, 64)+" s wall",
		plural(len(m.Data), "data file"),
		fmt.Sprintf("seed %d", m.Seed),
		plural(m.Workers, "worker"))
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// mdTable is a table parsed back from tables.md.
type mdTable struct {
	Title   string
	Header  []string
	Align   []string // "left", "right", "center" or "" per column
	Rows    [][]string
	Caption []string // paragraphs after the table
}

// mdDoc is tables.md as written by the runner: "# Title", note paragraphs,
// then tables as [Table.RenderMarkdown] writes them.
type mdDoc struct {
	Title  string
	Notes  []string
	Tables []mdTable
}

// parseTablesMarkdown parses the subset of GitHub Markdown that the runner
// writes to tables.md. The first "# " line is the title; paragraphs before
// the first "### " heading or table are the notes; a "### " heading titles
// the table that follows it; a run of lines starting with "|" whose second
// line is a delimiter row is a table; the paragraphs after a table, up to
// the next heading or table, are its caption. Anything else becomes a
// paragraph of the current section.
func parseTablesMarkdown(s string) mdDoc {
	var doc mdDoc
	// tables.md writes every text escaped (MarkdownLiteral); the page
	// reads it back (MarkdownUnescape) and escapes what it shows itself.
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var (
		para    []string
		title   string // pending "### " heading
		cur     *mdTable
		inNotes = true
	)
	flush := func() {
		if len(para) == 0 {
			return
		}
		p := MarkdownUnescape(strings.Join(para, "\n"))
		para = nil
		switch {
		case inNotes:
			doc.Notes = append(doc.Notes, p)
		case cur != nil:
			cur.Caption = append(cur.Caption, p)
		}
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t")
		switch {
		case strings.TrimSpace(l) == "":
			flush()
		case strings.HasPrefix(l, "# ") && doc.Title == "" && len(doc.Tables) == 0:
			doc.Title = MarkdownUnescape(strings.TrimSpace(l[2:]))
		case strings.HasPrefix(l, "### "):
			flush()
			inNotes, cur = false, nil
			title = MarkdownUnescape(strings.TrimSpace(l[4:]))
		case strings.HasPrefix(l, "|") && i+1 < len(lines) && isDelimiterRow(lines[i+1]):
			flush()
			t := mdTable{Title: title, Header: SplitRow(l), Align: delimiterAligns(lines[i+1])}
			title = ""
			i++
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|") {
				i++
				t.Rows = append(t.Rows, SplitRow(strings.TrimRight(lines[i], " \t")))
			}
			doc.Tables = append(doc.Tables, t)
			inNotes, cur = false, &doc.Tables[len(doc.Tables)-1]
		default:
			para = append(para, l)
		}
	}
	flush()
	return doc
}

// SplitRow splits a Markdown table row of tables.md into its cells,
// trimmed and read back as text (MarkdownUnescape: "\\|" is a pipe
// inside a cell, "\\_" an underscore). The leading pipe and a trailing one
// are optional.
func SplitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	var cells []string
	var b strings.Builder
	closed := false
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && isASCIIPunct(l[i+1]):
			// Kept escaped for MarkdownUnescape: an escaped pipe does
			// not split.
			b.WriteString(l[i : i+2])
			i++
		case l[i] == '|':
			cells = append(cells, MarkdownUnescape(strings.TrimSpace(b.String())))
			b.Reset()
			closed = true
			continue
		default:
			b.WriteByte(l[i])
		}
		closed = false
	}
	if !closed || b.Len() > 0 {
		cells = append(cells, MarkdownUnescape(strings.TrimSpace(b.String())))
	}
	return cells
}

// isDelimiterRow reports whether l is a GFM table delimiter row such as
// "|:---|--:|:-:|".
func isDelimiterRow(l string) bool {
	l = strings.TrimSpace(l)
	if !strings.HasPrefix(l, "|") {
		return false
	}
	cells := SplitRow(l)
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

func delimiterAligns(l string) []string {
	cells := SplitRow(l)
	al := make([]string, len(cells))
	for i, c := range cells {
		left, right := strings.HasPrefix(c, ":"), strings.HasSuffix(c, ":")
		switch {
		case left && right:
			al[i] = "center"
		case right:
			al[i] = "right"
		case left:
			al[i] = "left"
		}
	}
	return al
}

// brReplacer turns the line breaks that RenderMarkdown writes as <br> back
// into newlines.
var brReplacer = strings.NewReplacer("<br>", "\n", "<br/>", "\n", "<br />", "\n")

func toHTMLTable(t mdTable) htmlTable {
	cell := func(s string, j int, body bool) htmlCell {
		c := htmlCell{Lines: strings.Split(brReplacer.Replace(s), "\n")}
		var cls []string
		if j < len(t.Align) {
			switch t.Align[j] {
			case "right":
				cls = append(cls, "r")
			case "center":
				if body {
					cls = append(cls, "c")
				}
			}
		}
		if body {
			if v := verdictClass(s); v != "" {
				cls = append(cls, v)
			}
		}
		c.Class = strings.Join(cls, " ")
		return c
	}
	h := htmlTable{Title: t.Title, Caption: t.Caption}
	if minTableWidth(t) > denseWidth {
		h.Class = "dense"
	}
	for j, s := range t.Header {
		h.Header = append(h.Header, cell(s, j, false))
	}
	for _, row := range t.Rows {
		var r []htmlCell
		for j, s := range row {
			r = append(r, cell(s, j, true))
		}
		h.Rows = append(h.Rows, r)
	}
	pinOwnMethod(&h, t.Title)
	return h
}

// A table whose words cannot fit the page side by side is set dense:
// smaller type, and words that still do not fit their cell break. The
// width is estimated from the longest word of each column at 0.55 em a
// character (Liberation Sans and DejaVu Sans average 0.5–0.6 em) in the
// tables' 14.4-pixel type, plus each cell's padding and border; denseWidth
// leaves the page's margins of a 1280-pixel window.
const (
	denseWidth   = 1200 // pixels
	charWidth    = 0.55 * 14.4
	cellPaddingW = 16 // 2 × 0.5 em of 14.4 px and a border
)

// minTableWidth estimates the narrowest t can be set without breaking a
// word, in pixels.
func minTableWidth(t mdTable) float64 {
	var cols []int // longest word per column, in runes
	measure := func(row []string) {
		for j, c := range row {
			for len(cols) <= j {
				cols = append(cols, 0)
			}
			for _, w := range strings.Fields(brReplacer.Replace(c)) {
				cols[j] = max(cols[j], utf8.RuneCountInString(w))
			}
		}
	}
	measure(t.Header)
	for _, r := range t.Rows {
		measure(r)
	}
	var w float64
	for _, n := range cols {
		w += float64(n)*charWidth + cellPaddingW
	}
	return w
}

// countCellData is a count of the root index, linked to the claims of its
// run's page when not zero.
type countCellData struct {
	Href, Class, Label string
	N                  int
}

func countCell(href string, n int, class, label string) countCellData {
	return countCellData{Href: href, N: n, Class: class, Label: label}
}

// writeTemplate renders the named template and writes it atomically.
func writeTemplate(path, name string, data any) error {
	var buf bytes.Buffer
	if err := htmlTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// htmlTemplates renders the pages. The markup is XHTML-style (every element
// closed, void elements self-closed) so that it parses as XML too.
//
// The pages fit a 1280-pixel window without scrolling sideways (package
// pagecheck checks them in Chromium): body text is at most 80em wide,
// images shrink to it, and table cells wrap (a word longer than its cell
// breaks). Claims are compact
// rows whose evidence, interval and reasons fold under the statement.
var htmlTemplates = template.Must(template.New("").Funcs(template.FuncMap{"count": countCell}).Parse(`
{{- define "head" -}}
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>{{.}}</title>
<style>
` + PageCSS + `.r { text-align: right; font-variant-numeric: tabular-nums; }
.c { text-align: center; }
.caption, .prov, .muted { color: #555; }
.prov, .nav { font-size: 0.9em; }
table.claims { width: 100%; }
table.claims td.id { width: 13em; } table.claims td.v { width: 8em; } table.claims td.x { width: 12em; }
@media (max-width: 600px) { table.claims td.id, table.claims td.v, table.claims td.x { width: auto; } }
details > summary { cursor: pointer; }
details dl { margin: 0.4em 0 0.2em; font-size: 0.95em; }
details dt { font-weight: bold; color: #444; }
details dd { margin: 0 0 0.3em 1.2em; }
table.dense { font-size: 0.78em; } table.dense td, table.dense th { padding: 0.15em 0.3em; overflow-wrap: anywhere; }
tr:target { outline: 2px solid #4a7fd0; }
</style>
</head>
{{- end}}

{{- define "cell"}}{{range $i, $l := .Lines}}{{if $i}}<br />{{end}}{{$l}}{{end}}{{end}}

{{- define "claimsline"}}{{if .Unexpected}}<b class="unexpected">{{.Unexpected}} not as expected</b>; {{end}}{{.Pass}} passed, {{.Fail}} failed as expected (known non-reproductions), {{.Inconclusive}} inconclusive, {{.NotEvaluated}} not evaluated{{if not .Unexpected}}; every verdict as expected{{if or .Fail .Inconclusive .NotEvaluated}}, which is not every check passing: {{.Fail}} of the {{.Claims}} are expected to FAIL and {{.Inconclusive}} to be INCONCLUSIVE{{if .NotEvaluated}}, and {{.NotEvaluated}} are not evaluated{{end}}{{end}}{{end}}{{end}}

{{- define "countcell"}}{{if .N}}<td class="r {{.Class}}" data-label="{{.Label}}"><a href="{{.Href}}/index.html#claims">{{.N}}</a></td>{{else}}<td class="r{{if eq .Label "Not as expected"}} key{{end}}" data-label="{{.Label}}">0</td>{{end}}{{end}}

{{- define "rich"}}{{range .}}{{if .Sub}}<sub>{{.S}}</sub>{{else}}{{.S}}{{end}}{{end}}{{end}}

{{- define "table"}}
<table id="{{.Anchor}}"{{with .Class}} class="{{.}}"{{end}}>
<thead><tr>{{range .Header}}<th{{with .Class}} class="{{.}}"{{end}}>{{template "cell" .}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{with .Class}} class="{{.}}"{{end}}>{{template "cell" .}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- range .Caption}}
<p class="caption">{{.}}</p>
{{- end}}
{{- end}}

{{- define "figure"}}
<figure id="{{.Anchor}}"{{with .Class}} class="{{.}}"{{end}}>
<a href="{{.Link}}"><img src="{{.Img}}" alt="{{.Name}}" loading="lazy"{{with .TextPx}} data-text-px="{{.}}"{{end}}{{if .Thumb}} class="thumb"{{end}} /></a>
<figcaption>{{if .Class}}<span class="thumb-note"><b>A thumbnail</b> of a {{.W}}×{{.H}} px figure whose labels are too small to read at this width: open it ({{range $i, $l := .Links}}{{if $i}} · {{end}}<a href="{{$l.Href}}">{{$l.Text}}</a>{{end}}) to read them.</span>{{end}}{{with .Caption}}{{template "rich" .}}<br />{{end}}<span class="muted">{{.Name}}{{range .Links}} · <a href="{{.Href}}">{{.Text}}</a>{{end}}</span></figcaption>
</figure>
{{- end}}

{{- define "added"}}
<h2 id="added">Added estimators</h2>
<p class="muted">Added on the command line (runexp --with): the tables and figures show their cells beside the config's own methods; claims and paper values ignore them.</p>
<table>
<thead><tr><th>Label</th><th>--with</th><th>Parameters</th><th>Ran with (reported by the estimator)</th></tr></thead>
<tbody>
{{- range .}}
<tr><td>{{.Label}}</td><td><code>--with {{.Quoted}}</code></td><td>{{.Params}}</td><td>{{.Ran}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}

{{- define "run"}}{{template "head" .Title}}
<body>
{{- if .Up}}
<p class="muted"><a href="{{.Up}}">All runs</a></p>
{{- end}}
<h1>{{.Title}}</h1>
<p class="prov">{{.Name}} · {{.Provenance}}</p>
<p class="nav">On this page:{{if .Tables}} <a href="#{{(index .Tables 0).Anchor}}">table</a> ·{{end}}{{if .Added}} <a href="#added">added estimators</a> ·{{end}}{{if .Figures}} <a href="#figures">figures</a> ·{{end}}{{if .Readings}} <a href="#readings">readings</a> ·{{end}}{{if .HasClaims}} <a href="#claims">claims</a> ·{{end}}{{if gt (len .Tables) 1}} <a href="#tables">more tables</a> ·{{end}} <a href="#files">files</a></p>
{{- if .HasClaims}}
<p>Claims: {{template "claimsline" .Counts}}.</p>
{{- end}}
{{- if and .Notes .Tables}}
<p class="muted">The config's notes (our data against the paper's, the readings taken) follow the table: <a href="#notes">notes</a>.</p>
{{- end}}
{{- with .Tables}}
{{- with index . 0}}
<h2>{{if .Title}}{{.Title}}{{else}}Results{{end}}</h2>
{{- template "table" .}}
{{- end}}
{{- end}}
{{- if .Added}}
{{template "added" .Added}}
{{- end}}
{{- if .Notes}}
<h2 id="notes">Notes</h2>
{{- range .Notes}}
<p>{{.}}</p>
{{- end}}
{{- end}}
{{- if .Figures}}
<h2 id="figures">Figures</h2>
{{- range .Figures}}
{{template "figure" .}}
{{- end}}
{{- end}}
{{- if .Readings}}
<h2 id="readings">Under each reading</h2>
<p class="muted">The documented readings of this config (docs/readings.md) whose runs are in the same results root: each one's figures named as this page's, and its table of the paper's values beside its own. The fit to the printed table is the median over its cells of |ln(ours/paper)|: 0 when every value is as printed, 0.69 when the typical cell is off by a factor of 2.</p>
{{- with .FitNote}}
<p><strong>{{.}}</strong></p>
{{- end}}
{{- with .OwnFit}}
<p>This config, the stated protocol: {{.}}.</p>
{{- end}}
{{- range .Readings}}
<h3 id="{{.Anchor}}"><a href="{{.Href}}">{{.Name}}</a>{{if .Diagnostic}} (diagnostic, not a reading of the paper){{end}}</h3>
<p>{{.Title}}{{with .Fit}}. Fit to the printed table: {{.}}{{end}}.</p>
{{- range .Figures}}
{{template "figure" .}}
{{- end}}
{{- with .Table}}
<h4>{{if .Title}}{{.Title}}{{else}}Results{{end}}</h4>
{{- template "table" .}}
{{- end}}
{{- end}}
{{- end}}
{{- if .HasClaims}}
<h2 id="claims">Claims</h2>
<p class="muted">One row per claim of the paper: its verdict on this run and whether that is the verdict the config expects (a non-reproduction the config expects is a known result, not a breakage). Open a statement for the evidence, the interval and the source.</p>
<table class="claims stack">
<thead><tr><th>Claim</th><th>Verdict</th><th>Expectation</th><th>Statement</th></tr></thead>
<tbody>
{{- range .Claims}}
<tr id="{{.Anchor}}"><td class="id"><code>{{.ID}}</code></td><td class="v key {{.Class}}">{{.Status}}</td><td class="x{{if .Unexpected}} unexpected{{else}} muted{{end}}">{{.Expect}}</td><td><details><summary>{{.Statement}}</summary>
<dl>
{{- with .Evidence}}<dt>Evidence</dt><dd>{{.}}</dd>{{end}}
{{- with .Interval}}<dt>Interval</dt><dd>{{.}}</dd>{{end}}
{{- if .PointDiffers}}<dt>Point estimate</dt><dd>{{.PointVerdict}} (the verdict rests on the interval)</dd>{{end}}
{{- with .Because}}<dt>Why this expectation</dt><dd>{{.}}</dd>{{end}}
{{- with .Source}}<dt>Source</dt><dd>{{.}}</dd>{{end}}
</dl>
</details></td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- if gt (len .Tables) 1}}
<h2 id="tables">More tables</h2>
{{- range $i, $t := .Tables}}{{if $i}}
<details id="{{$t.Anchor}}-fold">
<summary>{{if $t.Title}}{{$t.Title}}{{else}}Table {{$i}}{{end}} ({{len $t.Rows}} row{{if ne (len $t.Rows) 1}}s{{end}})</summary>
{{- template "table" $t}}
</details>
{{- end}}{{end}}
{{- end}}
<h2 id="files">Files</h2>
<ul>
{{- range .Files}}
<li><a href="{{.Href}}">{{.Text}}</a></li>
{{- end}}
</ul>
</body>
</html>
{{end}}

{{- define "root"}}{{template "head" "runexp results"}}
<body>
<h1>runexp results</h1>
{{- if .Up}}
<p class="muted"><a href="{{.Up}}">All results</a></p>
{{- end}}
<p>{{len .Runs}} run{{if ne (len .Runs) 1}}s{{end}}, {{.Cells}} cells ({{.Failed}} failed); {{.Counts.Claims}} config checks (each config's claims: the rows the papers' claims are judged on, counted by config below, not the papers' claims): {{template "claimsline" .Counts}}.</p>
{{- if .Added}}
{{template "added" .Added}}
{{- end}}
{{- if .Reports}}
<p>Reproduction reports, one per paper:{{range $i, $p := .Reports}}{{if $i}} ·{{end}} <a href="reports/{{$p}}/report.html">{{$p}}</a>{{end}}.</p>
{{- end}}
{{- if .Scoreboard}}
<p><a href="scoreboard.html">Reproducibility scoreboard</a>: every paper claim under the stated protocol and under the paper's one reading per ambiguity, the config checks that decide it, and totals per paper (<a href="scoreboard.md">Markdown</a>).</p>
{{- end}}
{{- if .Papers}}
<h2 id="papers">Papers</h2>
<p class="muted">Each paper's headline from the scoreboard: [Re] every claim a config tests is reproduced; [¬Re] a claim fails as the paper states it; [Re?] no claim fails as the paper states it but some are not reproduced here or are inconclusive, so the reproduction is not decided; [not run] no claim was run.</p>
<table class="stack papers">
<thead><tr><th>Paper</th><th>Headline</th><th>Paper claims</th></tr></thead>
<tbody>
{{- range .Papers}}
<tr><td>{{if .Href}}<a href="{{.Href}}">{{.Title}}</a>{{else}}{{.Title}}{{end}}{{with .Report}} · <a href="{{.}}">report</a>{{end}}</td><td class="key {{.Class}}" data-label="Headline">{{.Mark}}</td><td data-label="Paper claims">{{.Why}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- if .Runs}}
{{- if .Papers}}
<h2 id="runs">Runs</h2>
{{- end}}
<table class="stack runs">
<thead><tr><th>Run</th><th>Not as expected</th><th>Passed</th><th>Failed as expected</th><th>Inconclusive</th><th>Not evaluated</th><th>Cells</th><th>Failed cells</th><th>Wall (s)</th><th>Title</th></tr></thead>
<tbody>
{{- range .Runs}}
<tr><td><a href="{{.Href}}/index.html">{{.Name}}</a></td>
{{- $h := .Href}}{{with .Counts}}{{template "countcell" (count $h .Unexpected "unexpected key" "Not as expected")}}{{template "countcell" (count $h .Pass "pass" "Passed")}}{{template "countcell" (count $h .Fail "known" "Failed as expected")}}{{template "countcell" (count $h .Inconclusive "inc" "Inconclusive")}}{{template "countcell" (count $h .NotEvaluated "ne" "Not evaluated")}}{{end}}<td class="r" data-label="Cells">{{.Manifest.Cells}}</td><td class="r{{if .Manifest.Failed}} fail{{end}}" data-label="Failed cells">{{.Manifest.Failed}}</td><td class="r" data-label="Wall (s)">{{.Wall}}</td><td class="muted">{{.Title}}</td></tr>
{{- end}}
</tbody>
</table>
<p class="muted">The config checks of each run, each counted once: under its verdict when that is the verdict its config expects, otherwise under Not as expected (an alarm: the run changed). Failed as expected: checks that the config expects not to pass on its data (its notes, and each check's row on the run page, say why); green is passed, red failed, amber inconclusive, grey not evaluated. Which paper claims these decide, and how, is the scoreboard's.</p>
{{- end}}
{{- if .With}}
<h2>Runs with added estimators</h2>
<p>Each folder holds the configs run again with estimators added on the command line (runexp --with): their own index, tables and figures, the configs' own methods beside the added ones.</p>
<table>
<thead><tr><th>Folder</th><th>--with</th><th>Runs</th></tr></thead>
<tbody>
{{- range .With}}
<tr><td><a href="{{.Href}}/index.html">{{.Name}}</a></td><td>{{range $i, $s := .Spec}}{{if $i}}<br/>{{end}}{{$s}}{{end}}</td><td class="r">{{.Runs}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
</body>
</html>
{{end}}`))
