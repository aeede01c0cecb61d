package scoreboard

import (
	"slices"
	"strings"
)

// Sensitivity is a paper claim's verdict under one documented reading
// other than the assignment: shown beside the claim, never counted.
type Sensitivity struct {
	// Reading names it ("noise255 (a1)", "hr-uncentred (post hoc)",
	// "stated protocol"), Configs the configs that ran it for the claim's
	// rows, PostHoc whether it is a post-hoc variant.
	Reading string
	Configs []string
	PostHoc bool
	// Verdict is the claim's combined verdict under it (its rows' verdicts
	// as RowRef.Under gives them); RanVerdict the combined verdict of the
	// RanRows of its Rows that its configs ran (the others keep the stated
	// verdict, or were not run under it where their table lists an
	// ambiguity it reads).
	Verdict, RanVerdict string
	Rows, RanRows       int
	// Flips reports that the stated protocol passes the claim and this
	// reading does not; Passes that it passes a claim the assignment does
	// not (a reproduction the count leaves out).
	Flips, Passes bool
}

// Evidence roles: what a result is to the claim it bears on.
const (
	RoleStated      = "stated protocol"
	RoleAssigned    = "assigned reading"
	RoleSensitivity = "other reading (sensitivity)"
	RolePostHoc     = "post hoc (sensitivity)"
	RoleDiagnostic  = "diagnostic"
	RoleBeyond      = "beyond the paper's sentence"
)

// Evidence is one result bearing on a paper claim: one row of one config.
type Evidence struct {
	// Config is the config's name, Role what it is to the claim (RoleStated,
	// RoleAssigned, RoleSensitivity, RolePostHoc, RoleDiagnostic,
	// RoleBeyond) and Reading what it reads or probes ("clip (a1)", the
	// diagnostic's probe, why the row goes beyond the sentence).
	Config, Role, Reading string
	// Table is the base config whose row it is, Row the row's id.
	Table, Row string
	// Verdict is the row's verdict under this config ("not run" when the
	// config has no results); Point the comparison on the recorded numbers
	// (the first part of claims.json's evidence); Basis the verdict's
	// basis ("interval", or "point: why none").
	Verdict, Point, Basis string
	// HasCI reports an interval [CILo, CIHi] of the deciding difference.
	HasCI      bool
	CILo, CIHi float64
}

// paperReading is one documented reading a paper's variant columns run:
// a reading set, with a post-hoc choice or not, and its label.
type paperReading struct {
	set     ReadingSet
	postHoc string
	label   string
	configs map[string]string // base table → the config running it there
}

// readings lists the documented readings the paper's tables run (every
// reading and post-hoc column, diagnostics excepted), one entry per
// reading across the tables that run it, in label order.
func (p *Paper) readings() []paperReading {
	var out []paperReading
	idx := map[string]int{}
	for _, t := range p.Tables {
		for _, c := range t.Variants {
			if c.Diagnostic || (len(c.Readings) == 0 && c.PostHocName == "") {
				continue
			}
			label := c.Readings.String()
			if c.PostHocName != "" {
				if len(c.Readings) == 0 {
					label = c.PostHocName + " (post hoc)"
				} else {
					label += " + " + c.PostHocName + " (post hoc)"
				}
			}
			key := c.Readings.Key() + "|" + c.PostHocName
			if i, ok := idx[key]; ok {
				out[i].configs[t.Base.Name] = c.Name
				continue
			}
			idx[key] = len(out)
			out = append(out, paperReading{set: c.Readings, postHoc: c.PostHocName, label: label, configs: map[string]string{t.Base.Name: c.Name}})
		}
	}
	// The stated protocol is a reading of its own where the assignment
	// reads the paper otherwise.
	if !p.Assignment.Stated() {
		pr := paperReading{set: ReadingSet{}, label: RoleStated, configs: map[string]string{}}
		for _, t := range p.Tables {
			pr.configs[t.Base.Name] = t.Base.Name
		}
		out = append(out, pr)
	}
	slices.SortFunc(out, func(a, b paperReading) int { return strings.Compare(a.label, b.label) })
	return out
}

// sensitivity is a tested claim's verdict under each reading its rows
// were read under other than the assignment.
func (a *Account) sensitivity(readings []paperReading) []Sensitivity {
	var out []Sensitivity
	for _, pr := range readings {
		vs := make([]string, 0, len(a.Rows))
		var ran []string
		differs := false
		for _, r := range a.Rows {
			v, ok := r.Under[pr.label]
			if !ok {
				// A row read under no such reading keeps its counted
				// verdict.
				v = r.Assigned
			}
			if ok && r.ran[pr.label] {
				ran = append(ran, v)
				differs = differs || !r.same[pr.label]
			}
			vs = append(vs, v)
		}
		if !differs {
			// It ran none of the claim's rows, or only those the
			// assignment reads by it: it is the assignment there.
			continue
		}
		s := Sensitivity{Reading: pr.label, PostHoc: pr.postHoc != "", Verdict: combineVerdicts(vs), RanVerdict: combineVerdicts(ran), Rows: len(vs), RanRows: len(ran)}
		for _, r := range a.Rows {
			if c, ok := pr.configs[r.Table]; ok && !slices.Contains(s.Configs, c) {
				s.Configs = append(s.Configs, c)
			}
		}
		judged := s.Verdict == Fail || s.Verdict == Inconc
		s.Flips = a.Stated == Pass && judged
		s.Passes = s.Verdict == Pass && a.Assigned != Pass
		out = append(out, s)
	}
	return out
}

// evidence lists every result bearing on paper claim id: each counted
// row of the claim under every column of its table (the stated protocol,
// the assigned reading, the other readings, the post-hoc variants, the
// diagnostics), each row beyond its sentence, and each diagnostic's own
// check citing it.
func (p *Paper) evidence(id string) []Evidence {
	var out []Evidence
	for _, t := range p.Tables {
		cols := append([]Column{t.Base}, t.Variants...)
		for _, r := range t.Rows {
			if r.Paper != id {
				continue
			}
			if !r.Counted {
				out = append(out, evidenceOf(t.Base, t.Base.Name, r.ID, RoleBeyond, r.Beyond, r.Base))
				continue
			}
			for i, c := range cols {
				cell := r.Base
				if i > 0 {
					cell = r.Variants[i-1]
				}
				if !cell.Present {
					continue
				}
				role, what := columnRole(c, i-1 == t.Assigned)
				out = append(out, evidenceOf(c, t.Base.Name, r.ID, role, what, cell))
			}
		}
		for _, b := range t.Beyond {
			if b.Paper == id {
				var col Column
				for _, c := range t.Variants {
					if c.Name == b.Config {
						col = c
					}
				}
				out = append(out, evidenceOf(col, t.Base.Name, b.ID, RoleDiagnostic, "its own check: "+col.Probe, b.Result))
			}
		}
	}
	return out
}

// columnRole is what a column's results are to a claim, and what it
// reads or probes; assigned marks the column the assignment counts.
func columnRole(c Column, assigned bool) (role, what string) {
	switch {
	case assigned && c.Role() == "stated protocol":
		return RoleStated, "stated protocol (the assignment reads nothing otherwise here)"
	case assigned:
		return RoleAssigned, c.Readings.String()
	case c.Diagnostic:
		return RoleDiagnostic, c.Probe
	case c.PostHoc != "":
		return RolePostHoc, c.PostHoc
	case c.Role() == "reading":
		return RoleSensitivity, c.Readings.String()
	}
	return RoleStated, RoleStated
}

// evidenceOf is one cell as evidence.
func evidenceOf(c Column, table, row, role, what string, cell Cell) Evidence {
	point, _, _ := strings.Cut(cell.Evidence, " | ")
	e := Evidence{Config: c.Name, Role: role, Reading: what, Table: table, Row: row, Verdict: verdictOrNotRun(cell), Point: point, Basis: cell.Basis,
		HasCI: cell.HasCI, CILo: cell.CILo, CIHi: cell.CIHi}
	if !cell.Run {
		e.Point, e.Basis = "", ""
	}
	return e
}
