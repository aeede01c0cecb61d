package paperreport

import (
	"fmt"
	"runtime/debug"
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
// The title carries one of the journal's two marks, [Re] or [¬Re]
// (scoreboard.JournalMark, which the article prints beside it); our pages' [Re?] is kept under runexp.headline. What
// runexp cannot know (authors, editors, reviewers, dates, the article's
// number and DOI) is left empty for the authors and editors, as the
// template leaves it. runexp's own record of the verdicts is under the
// key runexp, which the template's tools ignore.
func (b *builder) metadata(title, abstract string, outcomes map[string]scoreboard.Account) string {
	q := yamlString
	var w strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&w, format+"\n", args...) }
	line("# ReScience C article metadata (https://github.com/ReScience/template), written by `runexp report`")
	line("# from the results, the configs and the paper values. Fields only the authors or the editors know")
	line("# (authors, affiliations, contributors, dates, review, article, the journal's issn, volume and issue) are left empty.")
	line("# The title's mark is the journal's: [¬Re] when a claim fails as the paper states it or fewer than half of")
	line("# the tested claims reproduce, [Re] otherwise; runexp.headline keeps runexp's own mark ([Re?]: not decided).")
	mark, _ := scoreboard.Headline(b.sb)
	journal, _ := scoreboard.JournalMark(b.sb)
	line("title: %s", q(journal+" "+b.info.Title))
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
	line("  - bib: %s", q(b.paperKey()))
	line("  - url:")
	line("  - doi: %s", q(b.paperDOI()))
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
	revs, from := b.revisions()
	rev := strings.Join(revs, ", ")
	if rev == "" {
		rev = "not recorded in the results; report written by " + BinaryRevision()
	}
	line("  revision: %s", q(rev))
	if len(from) > 0 {
		line("  revision_from: %s", q(strings.Join(from, "; ")))
	}
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

// paperDOI is the replicated paper's DOI: the paper values', else its
// references.bib entry's (which records where it was read), "" when
// neither gives one.
func (b *builder) paperDOI() string {
	if b.info.DOI != "" {
		return b.info.DOI
	}
	if e, ok := b.bib.entry(b.paperKey()); ok {
		return e.Fields["doi"]
	}
	return ""
}

// paperKey is the replicated paper's key in references.bib (the entry
// whose runexp field names paper:ID), "" when the file has none.
func (b *builder) paperKey() string {
	if keys := b.bib.keysFor("paper:" + b.paper); len(keys) > 0 {
		return keys[0]
	}
	return ""
}

// bibliography is bibliography.bib: the entries of references.bib the
// report cites, in the order first cited, as the file writes them (its
// runexp field, which BibTeX ignores, left out).
func (b *builder) bibliography() string {
	var w strings.Builder
	w.WriteString("% The works REPORT.md cites, from runexp's internal/paperreport/references.bib.\n")
	for _, k := range b.cited {
		e, ok := b.bib.entry(k)
		if !ok {
			continue
		}
		fmt.Fprintf(&w, "\n@%s{%s,\n", e.Type, e.Key)
		for _, f := range e.Order {
			if f == "runexp" {
				continue
			}
			fmt.Fprintf(&w, "  %s = {%s},\n", f, e.Fields[f])
		}
		w.WriteString("}\n")
	}
	return w.String()
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
