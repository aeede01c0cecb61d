package suggest

import (
	"fmt"
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	// Distances counted by hand: each comment lists the edits.
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},              // three deletions
		{"valdiate", "validate", 1}, // one swap of neighbours (di → id)
		{"kitten", "sitting", 3},    // k→s, e→i, insert g
		{"ca", "abc", 3},            // OSA, unlike Damerau–Levenshtein (2), edits no substring twice
		{"table2", "table1", 1},     // one substitution
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := distance(tc.b, tc.a); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"run", "validate", "list", "version", "denoise", "merge", "compare", "suite", "check-estimator", "scoreboard"}
	configs := []string{"zheng-lai-table1", "zheng-lai-table2", "zheng-lai-table2-clip", "zheng-lpkpca-table2", "nguyen-table2",
		"huang-table1", "abrahamsen-hansen-fig3", "table1", "matrix"}
	for _, tc := range []struct {
		name  string
		cands []string
		n     int
		want  []string
	}{
		{"valdiate", commands, 3, []string{"validate"}},
		{"VALIDATE", commands, 3, nil}, // equal but for case: not a suggestion
		{"scorebord", commands, 3, []string{"scoreboard"}},
		{"frobnicate", commands, 3, nil},
		// Words: every word of the name in the candidate, the shortest first.
		{"zheng-table2", configs, 5, []string{"zheng-lai-table2", "zheng-lpkpca-table2", "zheng-lai-table2-clip"}},
		// Within a quarter of the length first, then the word matches.
		{"table2", configs, 5, []string{"table1", "nguyen-table2", "zheng-lai-table2", "zheng-lpkpca-table2", "zheng-lai-table2-clip"}},
		// A word one edit away matches unless the edit is in its digits.
		{"zheng-lia-table1", configs, 5, []string{"zheng-lai-table1", "zheng-lai-table2", "table1"}},
		{"abrahamsen-hansen-fig33", configs, 2, []string{"abrahamsen-hansen-fig3"}},
		{"huang-tabel1", configs, 5, []string{"huang-table1"}},
		{"mse_mena", []string{"mse_mean", "ape_mean*", "snr"}, 3, []string{"mse_mean"}},
	} {
		got := Closest(tc.name, tc.cands, tc.n)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestHint(t *testing.T) {
	if got, want := Hint("valdiate", []string{"validate"}, 3), "; did you mean validate?"; got != want {
		t.Errorf("Hint = %q, want %q", got, want)
	}
	if got, want := Hint("tablex", []string{"table1", "table2", "table3"}, 3), "; did you mean table1, table2 or table3?"; got != want {
		t.Errorf("Hint = %q, want %q", got, want)
	}
	if got := Hint("x", []string{"validate"}, 3); got != "" {
		t.Errorf("Hint of a name like nothing = %q, want empty", got)
	}
}

func ExampleClosest() {
	fmt.Println(Closest("valdiate", []string{"run", "validate", "list"}, 3))
	// Output: [validate]
}
