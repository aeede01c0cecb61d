package claims

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// Description is a claim's check in words a reader can hold against the
// numbers: what is compared (Test) and where the verdict's boundary lies
// (Boundary), as the report and the run pages print them beside the
// measured values and the interval.
type Description struct {
	// Test is the comparison the check makes on the records, e.g. "mean
	// band_width of {c: 10, method: Mika et al.} over the cells it selects
	// > 2 × mean band_width of {c: 500, method: Mika et al.}".
	Test string
	// Boundary says what the verdict's interval (or, without one, the
	// point estimate) is held against, e.g. "PASS when the interval of
	// left − 2×right lies above 0".
	Boundary string
}

// Describe returns the check of cl in words; an error for a check that
// does not parse (the claim is then NOT-EVALUATED with that error).
func Describe(cl config.Claim) (Description, error) {
	sp, err := parse(cl.Check)
	if err != nil {
		return Description{}, err
	}
	m := "`" + sp.metric + "`"
	side := func(op string) string {
		switch op {
		case ">":
			return "above"
		case ">=":
			return "at or above"
		case "<=":
			return "at or below"
		}
		return "below"
	}
	factor := func() string {
		if sp.factor == 1 {
			return ""
		}
		return num(sp.factor) + " × "
	}
	var d Description
	switch sp.typ {
	case "value":
		d.Test = fmt.Sprintf("%s of %s %s %s", m, sel(sp.where), sp.op, num(sp.value))
		if sp.given != nil {
			d.Test += fmt.Sprintf(", on the items where %s of %s is %s", "`"+sp.given.array+"`", sel(sp.given.sel), num(sp.given.equals))
		}
		if sp.against != nil {
			d.Test += fmt.Sprintf(", told apart from %s (the same metric), which it must not equal", sel(sp.against))
		}
		d.Boundary = fmt.Sprintf("PASS when the value (its interval, where the items give one) lies %s %s", side(sp.op), num(sp.value))
	case "compare":
		d.Test = fmt.Sprintf("%s of %s %s %s%s of %s", m, sel(sp.left), sp.op, factor(), m, sel(sp.right))
		d.Test += forAll(sp.forAll, sp.where)
		d.Boundary = fmt.Sprintf("PASS when left − %sright lies %s 0 (its interval, where the items give one)", factor(), side(sp.op))
	case "ratio":
		d.Test = fmt.Sprintf("the %s of %s over %s %s %sthe %s over %s", sp.lsum, m, sel(sp.left), sp.op, factor(), sp.rsum, sel(sp.right))
		d.Test += forAll(sp.forAll, nil)
		d.Boundary = fmt.Sprintf("PASS when left − %sright lies %s 0 (its interval, where the items give one)", factor(), side(sp.op))
	case "best":
		sense := "lowest"
		if sp.sense == "max" {
			sense = "highest"
		}
		d.Test = fmt.Sprintf("%s = %s has the %s %s among the %ss of %s", sp.among, sp.winner, sense, m, sp.among, sel(sp.where))
		d.Test += forAll(sp.forAll, nil)
		d.Boundary = fmt.Sprintf("PASS when the winner minus its closest rival lies %s 0 (its interval, where the items give one)", map[string]string{"min": "below", "max": "above"}[sp.sense])
	case "trend":
		d.Test = fmt.Sprintf("%s %s along %s over %s", m, sp.direction, sp.along, sel(sp.where))
		if len(sp.group) > 0 {
			d.Test += ", in each group of " + strings.Join(sp.group, ", ")
		}
		switch sp.test {
		case "spearman":
			d.Boundary = fmt.Sprintf("PASS when Spearman's ρ between %s and %s is at least %s in the claimed direction (its interval's lower end, where the items give one)", sp.along, sp.metric, num(sp.minRho))
		case "endpoints":
			d.Boundary = fmt.Sprintf("PASS when the last value minus the first lies on the %s side of 0", sp.direction)
		default:
			d.Boundary = "PASS when every step moves in the claimed direction"
		}
	}
	return d, nil
}

// forAll says a check's quantifier, "" when it has none.
func forAll(keys []string, where map[string]any) string {
	s := ""
	if len(keys) > 0 {
		s = ", for every " + strings.Join(keys, " and every ")
	}
	if len(where) > 0 {
		s += ", within " + sel(where)
	}
	return s
}

// sel is a cell selector as text: {key: value, ...}, keys sorted, or
// "every cell".
func sel(m map[string]any) string {
	if len(m) == 0 {
		return "every cell"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := config.FormatValue(m[k])
		if list, ok := m[k].([]any); ok {
			vs := make([]string, len(list))
			for j, x := range list {
				vs[j] = config.FormatValue(x)
			}
			v = "[" + strings.Join(vs, ", ") + "]"
		}
		parts[i] = k + ": " + v
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// num formats a threshold or factor as written: the shortest decimal.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
