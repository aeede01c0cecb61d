package suggest

import (
	"slices"
	"testing"
)

// TestClosestRules checks each rule of the package documentation alone:
// the edit distance allowed grows with the name (a quarter of its length,
// at least one); a matching word ranks before containment, the last
// resort, which needs three letters or more; a repeated candidate is suggested once; n bounds
// the list; ties go to the shorter candidate, then alphabetically.
func TestClosestRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		n     int
		want  []string
	}{
		// len 4: one edit allowed, not two.
		{"mika", []string{"mike", "mila", "muko"}, 5, []string{"mike", "mila"}},
		{"mika", []string{"muko"}, 5, nil},
		// len 8: two edits allowed.
		{"tikhonof", []string{"tikhonov"}, 5, []string{"tikhonov"}},
		{"tikhonxx", []string{"tikhonov"}, 5, []string{"tikhonov"}},
		{"tikxxxxv", []string{"tikhonov"}, 5, nil},
		// len 6: one edit, not two.
		{"sigmas", []string{"sxgmbs"}, 5, nil},
		// A word of the candidate before containment, either way, which
		// needs three letters or more.
		{"gram", []string{"grammar", "local-gram-denoise"}, 5, []string{"local-gram-denoise", "grammar"}},
		{"grammars", []string{"gram"}, 5, []string{"gram"}},
		{"lg", []string{"local-gram", "lgx"}, 5, []string{"lgx"}},
		{"lg", []string{"xlgxyz"}, 5, nil},
		// Repeats once; n bounds the list.
		{"table1", []string{"table2", "table2", "table3", "table4"}, 2, []string{"table2", "table3"}},
		// Ties: same distance, the shorter first, then alphabetical.
		{"abcd", []string{"abcde", "abce", "abcf"}, 5, []string{"abce", "abcf", "abcde"}},
	} {
		if got := Closest(tc.name, tc.cands, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q, %q, %d) = %q, want %q", tc.name, tc.cands, tc.n, got, tc.want)
		}
	}
}

// TestOr checks the joining of names in a message.
func TestOr(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := Or(tc.names); got != tc.want {
			t.Errorf("Or(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
