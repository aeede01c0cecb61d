package suggest

import (
	"cmp"
	"slices"
	"strings"
)

// Closest returns at most n of candidates that are near name, best
// first (see the package documentation for the tests); ties are broken
// by the shorter candidate, then alphabetically. Names are compared
// without regard to case. A candidate equal to name, and repeats, are
// left out.
func Closest(name string, candidates []string, n int) []string {
	type scored struct {
		cand        string
		class, dist int
	}
	w := strings.ToLower(name)
	words := split(w)
	var found []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w || seen[c] {
			continue
		}
		seen[c] = true
		d := distance(w, lc)
		class := 0
		switch {
		case d <= max(1, len([]rune(w))/4):
		case len(words) > 0 && coversWords(words, split(lc)):
			class = 1
		case len(w) >= 3 && (strings.Contains(lc, w) || len(lc) >= 3 && strings.Contains(w, lc)):
			class = 2
		default:
			continue
		}
		found = append(found, scored{c, class, d})
	}
	slices.SortFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.dist, b.dist),
			cmp.Compare(len(a.cand), len(b.cand)), cmp.Compare(a.cand, b.cand))
	})
	out := make([]string, 0, min(n, len(found)))
	for _, f := range found {
		if len(out) == n {
			break
		}
		out = append(out, f.cand)
	}
	return out
}

// Hint is Closest as the end of an error message: "; did you mean X?",
// "; did you mean X, Y or Z?", or "" when nothing is close.
func Hint(name string, candidates []string, n int) string {
	c := Closest(name, candidates, n)
	if len(c) == 0 {
		return ""
	}
	return "; did you mean " + Or(c) + "?"
}

// Or joins names as "A", "A or B", "A, B or C".
func Or(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// split cuts a name into its words at '-', '_', '.' and '/'.
func split(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' })
}

// coversWords reports whether every word of want matches a word of have:
// exactly, or within one edit that leaves the digits alone for words of
// four letters or more.
func coversWords(want, have []string) bool {
	for _, w := range want {
		ok := false
		for _, h := range have {
			if w == h || len(w) >= 4 && digits(w) == digits(h) && distance(w, h) <= 1 {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// digits returns the digits of s in order: "table2" and "table1" are
// one edit apart but name different things.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// distance is the optimal string alignment distance between a and b, in
// runes: the edits (insert, delete, substitute, swap two neighbours)
// that turn a into b, no substring edited twice.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j]; three rows suffice.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
