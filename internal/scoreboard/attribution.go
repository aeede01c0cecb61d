package scoreboard

import (
	"fmt"
	"strings"
)

// Attribution indices: whose failure a claim that is not reproduced, or
// inconclusive, is (config.Attributions), and none for a claim whose
// claims.json records none.
const (
	AttrPaper = iota
	AttrData
	AttrReading
	AttrTest
	AttrUndetermined
	AttrNone
	nAttr
)

// attrKinds are the attributions as claims.json writes them, by index.
var attrKinds = [nAttr]string{"paper", "data", "reading", "test", "undetermined", ""}

// attrNames head the split's columns: a claim attributed to the paper
// fails as the paper states it; the others fail here, by our choice.
var attrNames = [nAttr]string{
	"fails as the paper states it",
	"fails here: our data",
	"fails here: our reading",
	"fails here: our test",
	"undetermined",
	"not attributed",
}

// attrShort names an attribution in a table cell.
var attrShort = [nAttr]string{"paper", "our data", "our reading", "our test", "undetermined", "not attributed"}

// attrIndex is the index of attribution kind a ("" or unknown: AttrNone).
func attrIndex(a string) int {
	for i, k := range attrKinds[:AttrNone] {
		if a == k {
			return i
		}
	}
	return AttrNone
}

// Split counts the claims not reproduced ([0]) and inconclusive ([1]) by
// attribution: whose failure each is.
type Split [2][nAttr]int

func (s *Split) add(u Split) {
	for i := range s {
		for j := range s[i] {
			s[i][j] += u[i][j]
		}
	}
}

// count adds a claim (or row) of category c attributed to a.
func (s *Split) count(c Category, a string) {
	switch c {
	case NotReproduced:
		s[0][attrIndex(a)]++
	case Inconclusive:
		s[1][attrIndex(a)]++
	}
}

// line is "N not reproduced: a fails as the paper states it, b fails
// here: our data, …; M inconclusive: …", leaving out the zero counts.
func (s Split) line() string {
	var parts []string
	for i, what := range []string{"not reproduced", "inconclusive"} {
		n := 0
		var by []string
		for j, v := range s[i] {
			n += v
			if v > 0 {
				by = append(by, fmt.Sprintf("%d %s", v, attrNames[j]))
			}
		}
		if n == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s)", n, what, strings.Join(by, ", ")))
	}
	if len(parts) == 0 {
		return "nothing not reproduced or inconclusive"
	}
	return strings.Join(parts, "; ")
}

// categoryText is a row's category as a table cell: for a claim not
// reproduced or inconclusive, with whose failure it is.
func categoryText(r Row) string {
	if !r.Counted {
		if r.Beyond != "" {
			return "beyond the paper"
		}
		return "not a paper claim"
	}
	s := shortCategory[r.Category]
	if r.Derived.Kind != "" && r.Category != OtherReading {
		s += " (" + attrShort[attrIndex(r.Derived.Kind)] + ")"
	}
	return s
}

// accountCategoryText is a paper claim's outcome as a table cell: its
// category, with the readings that reproduce it or whose failure it is.
func accountCategoryText(a Account) string {
	s := shortCategory[a.Category]
	switch {
	case len(a.Under) > 0:
		s += " (" + strings.Join(a.Under, ", ") + ")"
	case a.Attribution != "" && a.Flipped:
		s += " (" + attrShort[attrIndex(a.Attribution)] + "; passes as stated)"
	case a.Attribution != "":
		s += " (" + attrShort[attrIndex(a.Attribution)] + ")"
	}
	return s
}
