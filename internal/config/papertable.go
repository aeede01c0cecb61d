package config

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxLabel is the longest row, column, part or corner label of a paper
// table, in characters: a label is what the paper prints over a column or
// beside a row, and the terminal table must fit 120 columns.
const MaxLabel = 48

// label reads a one-line, non-empty string of at most MaxLabel characters.
func (w *walker) label(n *yaml.Node, what string) (string, error) {
	s, err := w.str(n, what)
	if err != nil {
		return "", err
	}
	switch {
	case strings.TrimSpace(s) == "":
		return "", w.errf(n, "%s: empty; want the label as the paper prints it", what)
	case strings.ContainsAny(s, "\n\r"):
		return "", w.errf(n, "%s: want one line", what)
	case utf8.RuneCountInString(s) > MaxLabel:
		return "", w.errf(n, "%s: %d characters, want at most %d (a label, not a note: notes go under notes)", what, utf8.RuneCountInString(s), MaxLabel)
	}
	return s, nil
}

func (c *Config) parsePaperTable(w *walker, n *yaml.Node) error {
	f, _, err := w.fields(n, "paper_table", "title", "corner", "parts", "rows", "columns", "interpretations")
	if err != nil {
		return err
	}
	for _, req := range []string{"title", "rows", "columns"} {
		if f[req] == nil {
			return w.errf(n, "paper_table: missing %s (the paper's table: a title that names the reading of its metric, its rows and its columns in the paper's order)", req)
		}
	}
	pt := &PaperTable{Line: n.Line}
	if pt.Title, err = w.str(f["title"], "paper_table.title"); err != nil {
		return err
	}
	if strings.TrimSpace(pt.Title) == "" || strings.ContainsAny(pt.Title, "\n\r") {
		return w.errf(f["title"], "paper_table.title: want one non-empty line")
	}
	if cn := f["corner"]; cn != nil {
		if pt.Corner, err = w.label(cn, "paper_table.corner"); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		key string
		dst *[]string
	}{{"parts", &pt.Parts}, {"rows", &pt.Rows}, {"columns", &pt.Columns}} {
		ln := f[l.key]
		if ln == nil {
			continue
		}
		if *l.dst, err = w.labels(ln, "paper_table."+l.key); err != nil {
			return err
		}
	}
	if in := f["interpretations"]; in != nil {
		if err := pt.parseInterpretations(w, in); err != nil {
			return err
		}
	}
	c.PaperTable = pt
	return nil
}

// parseInterpretations reads paper_table.interpretations: {supported:
// [column labels], why: text}, the columns (interpretations of one
// printed number) that the paper's text and figures support.
func (pt *PaperTable) parseInterpretations(w *walker, n *yaml.Node) error {
	f, _, err := w.fields(n, "paper_table.interpretations", "supported", "why")
	if err != nil {
		return err
	}
	if f["supported"] == nil || f["why"] == nil {
		return w.errf(n, "paper_table.interpretations: want supported: [the columns the paper's text supports] and why:")
	}
	if pt.Supported, err = w.labels(f["supported"], "paper_table.interpretations.supported"); err != nil {
		return err
	}
	for i, s := range pt.Supported {
		if !contains(pt.Columns, s) {
			return w.errf(f["supported"].Content[i], "paper_table.interpretations.supported[%d]: %q is not one of paper_table's columns %s", i, Excerpt(s), quoteList(pt.Columns))
		}
	}
	if pt.SupportedWhy, err = w.str(f["why"], "paper_table.interpretations.why"); err != nil {
		return err
	}
	return nil
}

// labels reads a non-empty list of distinct labels.
func (w *walker) labels(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, w.errf(n, "%s: want a list of labels in the paper's order, got %s", what, describe(n))
	}
	var out []string
	for i, it := range n.Content {
		s, err := w.label(it, fmt.Sprintf("%s[%d]", what, i))
		if err != nil {
			return nil, err
		}
		if contains(out, s) {
			return nil, w.errf(it, "%s[%d]: %q is listed twice", what, i, Excerpt(s))
		}
		out = append(out, s)
	}
	return out, nil
}

// checkLayout checks that the reference values fill the paper table: with
// paper_table every value has a row and a column, and no two share a
// place; without it no value has a place.
func (c *Config) checkLayout(pt *yaml.Node) error {
	if c.PaperTable == nil {
		for i, r := range c.Reference {
			for _, k := range []struct{ key, v string }{{"row", r.Row}, {"column", r.Column}, {"part", r.Part}, {"printed", r.Printed}, {"std", r.Std}} {
				if k.v != "" {
					return c.Errorf(r.Line, "reference[%d].%s: places the value in a paper table, but the config has no paper_table (its title and corner)", i, k.key)
				}
			}
		}
		return nil
	}
	if len(c.Reference) == 0 {
		return c.Errorf(pt.Line, "paper_table: no reference values to lay out")
	}
	type place struct{ part, row, col string }
	seen := map[place]int{}
	for i, r := range c.Reference {
		if r.Row == "" || r.Column == "" {
			return c.Errorf(r.Line, "reference[%d]: missing row or column; with paper_table every value sits in the paper's table, at the row and column the paper prints it", i)
		}
		for _, k := range []struct {
			key, v string
			in     []string
		}{{"row", r.Row, c.PaperTable.Rows}, {"column", r.Column, c.PaperTable.Columns}, {"part", r.Part, c.PaperTable.Parts}} {
			switch {
			case k.key == "part" && len(k.in) == 0 && k.v != "":
				return c.Errorf(r.Line, "reference[%d].part: %q, but paper_table lists no parts", i, Excerpt(k.v))
			case k.key == "part" && len(k.in) > 0 && k.v == "":
				return c.Errorf(r.Line, "reference[%d]: missing part; paper_table lists the parts %s", i, quoteList(k.in))
			case k.v != "" && !contains(k.in, k.v):
				return c.Errorf(r.Line, "reference[%d].%s: %q is not in paper_table's %ss %s", i, k.key, Excerpt(k.v), k.key, quoteList(k.in))
			}
		}
		p := place{r.Part, r.Row, r.Column}
		if j, dup := seen[p]; dup {
			at := fmt.Sprintf("row %q, column %q", Excerpt(r.Row), Excerpt(r.Column))
			if r.Part != "" {
				at += fmt.Sprintf(" of part %q", Excerpt(r.Part))
			}
			return c.Errorf(r.Line, "reference[%d]: %s is already reference[%d]'s (line %d)", i, at, j, c.Reference[j].Line)
		}
		seen[p] = i
	}
	return nil
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
