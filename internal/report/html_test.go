package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeFakeRun writes a small result directory like the runner's: tables.md
// with a title, notes, a table with a caption and a claims table;
// claims.json (when cl is not nil); manifest.json; records; and the figures
// named in figs (each "NAME.png" or "NAME.svg").
func writeFakeRun(t *testing.T, dir, title string, cl []claimJSON, figs ...string) {
	t.Helper()
	recs := []Record{
		{Key: "c=0.1", Seed: 1, Params: map[string]any{"c": 0.1}, Metrics: map[string]float64{"mse": 0.25}, Status: StatusOK},
		{Key: "c=1", Seed: 2, Params: map[string]any{"c": 1.0}, Metrics: map[string]float64{"mse": 0.5}, Status: StatusFailed, Error: "did not converge"},
	}
	if err := WriteJSONL(filepath.Join(dir, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(filepath.Join(dir, "records.csv"), recs); err != nil {
		t.Fatal(err)
	}

	var md bytes.Buffer
	md.WriteString("# " + title + "\n\nFirst note, <b>not markup</b> & all.\nStill the first note.\n\nSecond note.\n\n")
	tb := &Table{
		Title:   "Results",
		Caption: "Caption of results.",
		Header:  []string{"method", "c", "mse"},
		Rows: [][]string{
			{"Kwok|Tsang", "0.1", "0.25"},
			{"two\nlines", "1", "failed"},
		},
	}
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	md.WriteString("\n")
	every := &Table{Title: "Every cell", Header: []string{"c", "mse"}, Rows: [][]string{{"0.1", "0.25"}, {"1", "failed"}}}
	if err := every.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	md.WriteString("\n")
	ct := &Table{Title: "The paper's claims", Header: []string{"Claim", "Verdict"}}
	for _, c := range cl {
		ct.Rows = append(ct.Rows, []string{c.ID, c.Status})
	}
	if err := ct.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "tables.md"), md.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "tables.txt"), []byte(title+"\n")); err != nil {
		t.Fatal(err)
	}
	if cl != nil {
		b, err := json.MarshalIndent(cl, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(dir, "claims.json"), b); err != nil {
			t.Fatal(err)
		}
	}

	var pngBuf bytes.Buffer
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	img.Set(1, 1, color.White)
	if err := png.Encode(&pngBuf, img); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="1" height="1"/></svg>` + "\n")
	for _, f := range figs {
		data := svg
		if strings.HasSuffix(f, ".png") {
			data = pngBuf.Bytes()
		}
		if err := WriteFileAtomic(filepath.Join(dir, f), data); err != nil {
			t.Fatal(err)
		}
	}

	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	m := &Manifest{
		Config: "configs/" + filepath.Base(dir) + ".yaml", Revision: "abc123", GoVersion: "go1.26.0",
		GOOS: "linux", GOARCH: "amd64", Workers: 2, Seed: 1,
		Data:  []FileSum{{Path: "a.csv", SHA256: "00"}, {Path: "b.csv", SHA256: "11"}},
		Cells: len(recs), Failed: 1, Start: start, End: start.Add(1500 * time.Millisecond), WallSeconds: 1.5,
	}
	if err := m.Write(filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
}

// xhtmlPage is what the tests need of a parsed page.
type xhtmlPage struct {
	links []string            // every href and src
	ids   []string            // every id attribute
	cells map[string][]string // td class (each of its classes; "" for none) → text of each such td (<br /> as "\n")
	text  string              // all character data
}

// parseXHTML parses path as strict XML (with HTML's named entities), failing
// the test on any well-formedness error.
func parseXHTML(t *testing.T, path string) xhtmlPage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	p := xhtmlPage{cells: map[string][]string{}}
	var all strings.Builder
	var td *strings.Builder
	var tdClass string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			for _, a := range tok.Attr {
				switch a.Name.Local {
				case "href", "src":
					p.links = append(p.links, a.Value)
				case "id":
					p.ids = append(p.ids, a.Value)
				}
			}
			switch tok.Name.Local {
			case "td":
				td, tdClass = &strings.Builder{}, ""
				for _, a := range tok.Attr {
					if a.Name.Local == "class" {
						tdClass = a.Value
					}
				}
			case "br":
				if td != nil {
					td.WriteString("\n")
				}
			}
		case xml.EndElement:
			if tok.Name.Local == "td" && td != nil {
				classes := strings.Fields(tdClass)
				if len(classes) == 0 {
					classes = []string{""}
				}
				for _, c := range classes {
					p.cells[c] = append(p.cells[c], td.String())
				}
				td = nil
			}
		case xml.CharData:
			all.Write(tok)
			if td != nil {
				td.Write(tok)
			}
		}
	}
	p.text = all.String()
	return p
}

// checkLinks checks that every link of the page at path is relative and
// names an existing file, and that a fragment names an id of its target
// page (the page itself for "#id").
func checkLinks(t *testing.T, path string, links []string) {
	t.Helper()
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil {
			t.Errorf("%s: link %q: %v", path, l, err)
			continue
		}
		if u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") || (u.Path == "" && u.Fragment == "") {
			t.Errorf("%s: link %q is not a relative file link", path, l)
			continue
		}
		target := path
		if u.Path != "" {
			target = filepath.Join(filepath.Dir(path), filepath.FromSlash(u.Path))
		}
		if fi, err := os.Stat(target); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: link %q: %s is not a file", path, l, target)
			continue
		}
		if u.Fragment != "" && !slices.Contains(parseXHTML(t, target).ids, u.Fragment) {
			t.Errorf("%s: link %q: %s has no element with id %q", path, l, target, u.Fragment)
		}
	}
}

// readIndexes returns the contents of every index.html under root.
func readIndexes(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == "index.html" {
			b, err := os.ReadFile(p)
			out[p] = b
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriteIndex(t *testing.T) {
	root := t.TempDir()
	yes := true
	lo, hi := -0.5, 0.25
	claimsA := []claimJSON{
		{ID: "c1-trend", Statement: "MSE grows with c.", Source: "paper-values/x.yaml#c1", Status: verdictPass, Evidence: "ρ = 1 <= 1"},
		// A non-reproduction the config expects: counted as failed as
		// expected, never as unexpected.
		{ID: "c2-best", Statement: "Mika wins.", Status: verdictFail, Evidence: "Kwok|Tsang won", Expected: verdictFail, Because: "our data differ", AsExpected: &yes},
		// No expectation: NOT-EVALUATED is not as expected.
		{ID: "c3-data", Statement: "Needs data.", Status: verdictNotEvaluated, Evidence: "no cell"},
		{ID: "c4-close", Statement: "Tikhonov beats Mika.", Status: verdictInconclusive, Expected: verdictNotEvaluated, AsExpected: &yes,
			PointVerdict: verdictPass, CILo: &lo, CIHi: &hi, CILevel: 0.95, CIMethod: "paired BCa bootstrap"},
	}
	// The second run's name needs URL escaping ('#', ' ', '&', '%'); it has
	// a PNG-only and an SVG-only figure and no claims.
	runA, runB := "run-a", "run #2 & 50%"
	writeFakeRun(t, filepath.Join(root, runA), "Run A: Fig. 1 <x>", claimsA, "fig1.png", "fig1.svg", "fig2.png", "fig2.svg")
	writeFakeRun(t, filepath.Join(root, runB), "Run B", nil, "only-png.png", "only-svg.svg")
	// Neither of these is a run directory.
	for _, d := range []string{"not-a-run", ".hidden"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFileAtomic(filepath.Join(root, ".hidden", "manifest.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}

	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	first := readIndexes(t, root)
	rootPage := filepath.Join(root, "index.html")
	pageA := filepath.Join(root, runA, "index.html")
	pageB := filepath.Join(root, runB, "index.html")
	want := []string{rootPage, pageA, pageB}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(first)); !reflect.DeepEqual(got, want) {
		t.Fatalf("index files %q, want %q", got, want)
	}

	pages := map[string]xhtmlPage{}
	for _, p := range want {
		pg := parseXHTML(t, p)
		checkLinks(t, p, pg.links)
		pages[p] = pg
	}

	// Root index: one linked row per run with its counts, linked to the
	// claims on the run's page, never to raw JSON.
	rp := pages[rootPage]
	for _, l := range []string{"run-a/index.html", "run-a/index.html#claims", "run%20%232%20&%2050%25/index.html"} {
		if !slices.Contains(rp.links, l) {
			t.Errorf("root index lacks link %q; has %q", l, rp.links)
		}
	}
	for _, l := range rp.links {
		if strings.HasSuffix(l, ".json") {
			t.Errorf("root index links raw JSON %q", l)
		}
	}
	for _, s := range []string{"Run A: Fig. 1 <x>", "Run B", runB, "1.5",
		"1 not as expected; 1 passed, 1 failed as expected (known non-reproductions), 1 inconclusive, 0 not evaluated."} {
		if !strings.Contains(rp.text, s) {
			t.Errorf("root index lacks %q", s)
		}
	}
	// Run A's claims, each counted once: the expected FAIL as a known
	// failure (red, not the alarm), the inconclusive amber, the
	// NOT-EVALUATED without an expectation as unexpected.
	for class, want := range map[string][]string{"pass": {"1"}, "known": {"1"}, "inc": {"1"}, "unexpected": {"1"}} {
		if got := rp.cells[class]; !reflect.DeepEqual(got, want) {
			t.Errorf("root index cells of class %q: %q, want %q", class, got, want)
		}
	}

	// Run A's page.
	ap := pages[pageA]
	for _, l := range []string{"../index.html", "fig1.png", "fig1.svg", "fig2.png", "fig2.svg", "records.jsonl", "records.csv", "tables.md", "tables.txt", "claims.json", "manifest.json"} {
		if !slices.Contains(ap.links, l) {
			t.Errorf("run page lacks link %q; has %q", l, ap.links)
		}
	}
	// Each verdict appears once: in the claims.json table; the tables.md
	// claims table, which repeats it, is left out. The expected FAIL is a
	// known failure, not the alarm; the NOT-EVALUATED without an
	// expectation is the alarm in its verdict and expectation cells.
	for class, want := range map[string][]string{
		"pass": {verdictPass}, "known": {verdictFail}, "inc": {verdictInconclusive},
		"unexpected": {verdictNotEvaluated, "not as expected (expected: pass)"},
	} {
		if got := ap.cells[class]; !reflect.DeepEqual(got, want) {
			t.Errorf("cells of class %q: %q, want %q", class, got, want)
		}
	}
	if got := ap.cells["fail"]; len(got) != 0 {
		t.Errorf("an expected FAIL is painted as a failure: %q", got)
	}
	for _, id := range []string{"claim-c1-trend", "claim-c2-best", "claim-c3-data", "claim-c4-close", "claims", "figures", "table-1", "table-2", "files"} {
		if !slices.Contains(ap.ids, id) {
			t.Errorf("run page has no element with id %q; has %q", id, ap.ids)
		}
	}
	// The paper's table first, then the figures, the claims and the
	// other tables.
	order := []string{"Results", "Figures", "One row per claim", "More tables", "Every cell"}
	for i := 1; i < len(order); i++ {
		a, b := strings.Index(ap.text, order[i-1]), strings.Index(ap.text, order[i])
		if a < 0 || b < 0 || a > b {
			t.Errorf("run page: %q (at %d) does not come before %q (at %d)", order[i-1], a, order[i], b)
		}
	}
	if strings.Contains(ap.text, "The paper's claims") {
		t.Error("run page shows the claims table of tables.md beside claims.json")
	}
	for _, s := range []string{
		"Run A: Fig. 1 <x>",
		"First note, <b>not markup</b> & all.\nStill the first note.",
		"Second note.",
		"Results", "Caption of results.",
		"MSE grows with c.", "ρ = 1 <= 1", "paper-values/x.yaml#c1", "our data differ",
		"expected: fail", "expected: inconclusive", "95% interval [-0.5, 0.25]: paired BCa bootstrap", "PASS (the verdict rests on the interval)",
		"revision abc123", "1.5 s wall", "2 data files",
	} {
		if !strings.Contains(ap.text, s) {
			t.Errorf("run page lacks %q", s)
		}
	}
	var body []string
	for _, class := range []string{"", "r"} {
		body = append(body, ap.cells[class]...)
	}
	for _, s := range []string{"Kwok|Tsang", "two\nlines", "0.25", "failed"} {
		if !slices.Contains(body, s) {
			t.Errorf("run page has no table cell %q; cells %q", s, body)
		}
	}
	if got := ap.cells["r"]; !slices.Contains(got, "0.1") {
		t.Errorf("numeric column not right-aligned: cells of class r %q", got)
	}

	// Run B: figures without a partner, no claims section.
	bp := pages[pageB]
	for _, l := range []string{"only-png.png", "only-svg.svg", "../index.html"} {
		if !slices.Contains(bp.links, l) {
			t.Errorf("run B page lacks link %q; has %q", l, bp.links)
		}
	}
	if slices.Contains(bp.links, "claims.json") || strings.Contains(bp.text, "Claims:") {
		t.Error("run B page shows claims it does not have")
	}

	// A second call writes the same bytes.
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	if second := readIndexes(t, root); !reflect.DeepEqual(first, second) {
		t.Error("second WriteIndex changed the pages")
	}
}

// TestWriteIndexRunDir: a root that is itself a run directory gets its run
// page as index.html, without a link up.
func TestWriteIndexRunDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "solo")
	writeFakeRun(t, dir, "Solo", []claimJSON{{ID: "c", Status: verdictPass}}, "f.png", "f.svg")
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "index.html")
	p := parseXHTML(t, path)
	checkLinks(t, path, p.links)
	if slices.Contains(p.links, "../index.html") {
		t.Error("single run page links up to a root index that does not exist")
	}
	if !strings.Contains(p.text, "Solo") || !slices.Contains(p.cells["pass"], verdictPass) {
		t.Errorf("single run page lacks its title or claim: %q", p.text)
	}
}

func TestWriteIndexErrors(t *testing.T) {
	root := t.TempDir()
	if err := WriteIndex(filepath.Join(root, "absent")); err == nil {
		t.Error("no error for a missing root")
	}
	bad := filepath.Join(root, "bad")
	if err := WriteFileAtomic(filepath.Join(bad, "manifest.json"), []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	err := WriteIndex(root)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "manifest.json")) {
		t.Errorf("malformed manifest: error %v, want one naming the file", err)
	}
}

// TestWriteIndexEmptyRoot: a root without runs still gets a valid index.
func TestWriteIndexEmptyRoot(t *testing.T) {
	root := t.TempDir()
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	p := parseXHTML(t, filepath.Join(root, "index.html"))
	if !strings.Contains(p.text, "0 runs") {
		t.Errorf("empty index text %q", p.text)
	}
}

// TestParseTablesMarkdownRoundTrip: parsing what RenderMarkdown writes gives
// back the table (rows padded to the header, line breaks restored).
func TestParseTablesMarkdownRoundTrip(t *testing.T) {
	a := testTable()
	b := &Table{Header: []string{"x", "y\nz"}, Rows: [][]string{{`a\b`, "p|q|r"}}, Caption: "Two\n\nparagraphs."}
	var md bytes.Buffer
	md.WriteString("# Doc title\n\nA note.\n\n")
	for _, tb := range []*Table{a, b} {
		if err := tb.RenderMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		md.WriteString("\n")
	}
	doc := parseTablesMarkdown(md.String())
	if doc.Title != "Doc title" || !reflect.DeepEqual(doc.Notes, []string{"A note."}) {
		t.Errorf("title %q notes %q", doc.Title, doc.Notes)
	}
	if len(doc.Tables) != 2 {
		t.Fatalf("parsed %d tables, want 2:\n%s", len(doc.Tables), md.String())
	}
	unbr := func(s []string) []string {
		out := make([]string, len(s))
		for i, v := range s {
			out[i] = brReplacer.Replace(v)
		}
		return out
	}
	for i, tb := range []*Table{a, b} {
		got := doc.Tables[i]
		if got.Title != tb.Title {
			t.Errorf("table %d title %q, want %q", i, got.Title, tb.Title)
		}
		if !reflect.DeepEqual(unbr(got.Header), tb.Header) {
			t.Errorf("table %d header %q, want %q", i, got.Header, tb.Header)
		}
		want := tb.paddedRows(nil)
		if len(got.Rows) != len(want) {
			t.Fatalf("table %d has %d rows, want %d", i, len(got.Rows), len(want))
		}
		for r := range want {
			if !reflect.DeepEqual(unbr(got.Rows[r]), want[r]) {
				t.Errorf("table %d row %d %q, want %q", i, r, got.Rows[r], want[r])
			}
		}
	}
	if got := doc.Tables[0].Caption; !reflect.DeepEqual(got, []string{a.Caption}) {
		t.Errorf("caption %q, want %q", got, a.Caption)
	}
	if got := doc.Tables[1].Caption; !reflect.DeepEqual(got, []string{"Two", "paragraphs."}) {
		t.Errorf("caption %q, want two paragraphs", got)
	}
	if got := doc.Tables[0].Align; !reflect.DeepEqual(got, []string{"left", "right", "right", "right", "right"}) {
		t.Errorf("alignments %q", got)
	}
}

// TestWriteIndexRealResults renders the pages for a results root produced
// by the runner, when RUNEXP_TEST_RESULTS names one (for example after
// go run ./cmd/runexp --out /tmp/res configs/abrahamsen-hansen-fig3.yaml),
// and checks that they parse and every link resolves.
func TestWriteIndexRealResults(t *testing.T) {
	root := os.Getenv("RUNEXP_TEST_RESULTS")
	if root == "" {
		t.Skip("RUNEXP_TEST_RESULTS not set")
	}
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	for p := range readIndexes(t, root) {
		checkLinks(t, p, parseXHTML(t, p).links)
	}
}

// TestWriteIndexWithRoots: the root index links the results roots of
// --with runs (OUT/with-SLUG), in name order, with their specs and run
// counts; a folder without an index.html or without --with manifests is
// not linked.
func TestWriteIndexWithRoots(t *testing.T) {
	root := t.TempDir()
	writeFakeRun(t, filepath.Join(root, "run-a"), "Run A", nil)
	withRun := func(dir string, specs ...string) {
		t.Helper()
		writeFakeRun(t, dir, "Run A", nil)
		m := Manifest{Cells: 2}
		for _, s := range specs {
			m.With = append(m.With, WithSpec{Spec: s, Estimator: s, Label: s})
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(dir, "manifest.json"), b); err != nil {
			t.Fatal(err)
		}
	}
	// Made in the reverse of name order; the index lists them by name.
	withRun(filepath.Join(root, "with-z-00000000", "run-a"), "tikhonov:lambda=0.1")
	withRun(filepath.Join(root, "with-z-00000000", "run-b"), "tikhonov:lambda=0.1")
	withRun(filepath.Join(root, "with-b-11111111", "run-a"), "learned", "tikhonov")
	withRun(filepath.Join(root, "mine", "run-a"), "external:command=python3 my.py") // --with-dir mine
	withRun(filepath.Join(root, "with-noindex-22222222", "run-a"), "learned")       // no index.html: not linked
	writeFakeRun(t, filepath.Join(root, "plain-root", "run-a"), "Run A", nil)       // no --with: not linked
	for _, d := range []string{"with-z-00000000", "with-b-11111111", "mine", "plain-root"} {
		if err := WriteIndexUp(filepath.Join(root, d), "../index.html"); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(root, "index.html")
	pg := parseXHTML(t, page)
	checkLinks(t, page, pg.links)
	var with []string
	for _, l := range pg.links {
		if strings.HasSuffix(l, "/index.html") && !strings.HasPrefix(l, "run-a/") {
			with = append(with, l)
		}
	}
	if want := []string{"mine/index.html", "with-b-11111111/index.html", "with-z-00000000/index.html"}; !reflect.DeepEqual(with, want) {
		t.Errorf("root index links %q to results roots, want %q", with, want)
	}
	for _, s := range []string{"Runs with added estimators", "learned\ntikhonov", "tikhonov:lambda=0.1", "external:command=python3 my.py"} {
		if !strings.Contains(pg.text, s) && !slices.Contains(pg.cells[""], s) {
			t.Errorf("root index lacks %q", s)
		}
	}
	// with-z holds two runs, the others one each.
	if got, want := pg.cells["r"][len(pg.cells["r"])-3:], []string{"1", "1", "2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("run counts of the results roots %q, want %q", got, want)
	}
	// Each folder's page links back up, and the link resolves.
	sub := filepath.Join(root, "with-b-11111111", "index.html")
	spg := parseXHTML(t, sub)
	checkLinks(t, sub, spg.links)
	if !slices.Contains(spg.links, "../index.html") {
		t.Errorf("%s links %q, want ../index.html among them", sub, spg.links)
	}
	first := readIndexes(t, root)
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	if second := readIndexes(t, root); !reflect.DeepEqual(first, second) {
		t.Error("second WriteIndex changed the pages")
	}
}

// TestClaimsLineInWords checks the index's claims line (issue 39): "every
// verdict as expected" beside expected FAILs and INCONCLUSIVEs says in
// words that those are not reproductions (the suite's counts of 2026-11:
// 78 claims, 29 expected FAILs, 16 INCONCLUSIVEs), and a run where every
// claim passed says no more than that.
func TestClaimsLineInWords(t *testing.T) {
	for _, tc := range []struct {
		c    claimCounts
		want string
	}{
		{claimCounts{Claims: 78, Pass: 33, Fail: 29, Inconclusive: 16},
			"33 passed, 29 failed as expected (known non-reproductions), 16 inconclusive, 0 not evaluated; every verdict as expected, which is not every check passing: 29 of the 78 are expected to FAIL and 16 to be INCONCLUSIVE"},
		{claimCounts{Claims: 3, Pass: 3}, "3 passed, 0 failed as expected (known non-reproductions), 0 inconclusive, 0 not evaluated; every verdict as expected"},
	} {
		var b strings.Builder
		if err := htmlTemplates.ExecuteTemplate(&b, "claimsline", tc.c); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("claims line\n%s\nwant\n%s", b.String(), tc.want)
		}
	}
}
