package paperreport

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// CodeURL is the repository of runexp's code, the ReScience C
// metadata's code url: the module's path as a URL.
const CodeURL = "https://github.com/runexp/runexp"

// metadata writes the report's ReScience C metadata (the template's
// metadata.yaml: https://github.com/ReScience/template), with the fields
// and types the template's own parser (its article.py) reads: title,
// abstract, keywords, type, domain, language (the code's), bibliography;
// authors and affiliations as lists; code, data, review, replication,
// article and journal as lists of one-key mappings; dates with received,
// accepted and published; contributors as a list of name, orcid, role.
// What runexp cannot know (authors, editors, reviewers, dates, the
// article's number and DOI) is left empty for the authors and editors,
// as the template leaves it. runexp's own record of the verdicts is under
// the key runexp, which the template's tools ignore.
func (b *builder) metadata(title, abstract string, outcomes map[string]scoreboard.Account) string {
	q := yamlString
	var w strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&w, format+"\n", args...) }
	line("# ReScience C article metadata (https://github.com/ReScience/template), written by `runexp report`")
	line("# from the results, the configs and the paper values. Fields only the authors or the editors know")
	line("# (authors, affiliations, contributors, dates, review, article, the journal's issn, volume and issue) are left empty.")
	line("title: %s", q(title))
	line("authors: []")
	line("affiliations: []")
	line("keywords: %s", q("kernel PCA, pre-image, reproduction, Go"))
	line("code:")
	line("  - url: %s", q(CodeURL))
	line("  - doi:")
	line("  - swh:")
	line("data:")
	line("  - url:")
	line("  - doi:")
	line("replication:")
	line("  - cite: %s", q(b.citation()))
	line("  - bib: %s", q(b.bibKey()))
	line("  - url:")
	line("  - doi: %s", q(b.info.DOI))
	line("abstract: %s", q(abstract))
	line("bibliography: %s", q("bibliography.bib"))
	line("type: Replication")
	line("domain: %s", q("Machine learning"))
	line("language: Go")
	line("review:")
	line("  - url:")
	line("contributors: []")
	line("dates:")
	line("  - received:")
	line("  - accepted:")
	line("  - published:")
	line("article:")
	line("  - number:")
	line("  - doi:")
	line("  - url:")
	line("journal:")
	line("  - name: %s", q("ReScience C"))
	line("  - issn:")
	line("  - volume:")
	line("  - issue:")
	line("runexp:")
	line("  revision: %s", q(b.revision()))
	mark, _, _ := strings.Cut(title, " ")
	line("  headline: %s", q(mark))
	line("  claims:")
	for _, pc := range b.info.Claims {
		a := outcomes[pc.ID]
		line("    - id: %s", q(pc.ID))
		line("      outcome: %s", q(a.Category.String()))
		if a.Attribution != "" {
			line("      attribution: %s", q(a.Attribution))
		}
	}
	return w.String()
}

// yamlString is s as a double-quoted YAML scalar (JSON's string syntax is
// YAML's double-quoted one).
func yamlString(s string) string { return strconv.Quote(s) }

// citation is the replicated paper as the metadata's replication cite.
func (b *builder) citation() string {
	c := strings.Join(b.info.Authors, ", ")
	if b.info.Year != "" {
		c += " (" + b.info.Year + ")"
	}
	c += ". " + b.info.Title + "."
	if b.info.Venue != "" {
		c += " " + b.info.Venue + "."
	}
	return c
}

// bibKey is the replicated paper's key in bibliography.bib: the first
// author's last name and the year ("huang2011").
func (b *builder) bibKey() string {
	last := "paper"
	if len(b.info.Authors) > 0 {
		f := strings.Fields(b.info.Authors[0])
		last = f[len(f)-1]
	}
	var k strings.Builder
	for _, r := range strings.ToLower(last) {
		if r >= 'a' && r <= 'z' {
			k.WriteRune(r)
		}
	}
	return k.String() + b.info.Year
}

// bibliography is bibliography.bib: the replicated paper's entry.
func (b *builder) bibliography() string {
	var w strings.Builder
	fmt.Fprintf(&w, "@inproceedings{%s,\n", b.bibKey())
	fmt.Fprintf(&w, "  author = {%s},\n", strings.Join(b.info.Authors, " and "))
	fmt.Fprintf(&w, "  title = {%s},\n", b.info.Title)
	if b.info.Venue != "" {
		fmt.Fprintf(&w, "  booktitle = {%s},\n", b.info.Venue)
	}
	if b.info.Year != "" {
		fmt.Fprintf(&w, "  year = {%s},\n", b.info.Year)
	}
	if b.info.DOI != "" {
		fmt.Fprintf(&w, "  doi = {%s},\n", b.info.DOI)
	}
	w.WriteString("}\n")
	return w.String()
}

// revision is the code's revision: the manifests' (the runs'), else the
// binary's own (its build's VCS stamp or the -ldflags Revision), so that
// a report from baseline/, whose folders hold no manifest, still names
// the code that wrote it.
func (b *builder) revision() string {
	var revs []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		if r.Manifest != nil && r.Manifest.Revision != "" && !slices.Contains(revs, r.Manifest.Revision) {
			revs = append(revs, r.Manifest.Revision)
		}
	}
	if len(revs) > 0 {
		return strings.Join(revs, ", ")
	}
	return BinaryRevision()
}

// BinaryRevision is the revision the running binary was built from: its
// VCS stamp, else report.Revision (-ldflags), else "unknown".
func BinaryRevision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			if modified {
				rev += " (modified)"
			}
			return rev
		}
	}
	if report.Revision != "" {
		return report.Revision
	}
	return "unknown"
}
