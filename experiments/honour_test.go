package experiments_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestValidateRefusesWhatKindCannotHonour: settings a kind cannot honour
// are refused FILE:LINE: with what would work, never ignored (issue
// #38: fig2's fixed_components 1000000000 ran with exit 0, fig2a not
// written and fig2b's caption naming a panel that did not exist; a
// corruption section in a local-minima config was ignored, its records
// equal to the uncorrupted run's).
func TestValidateRefusesWhatKindCannotHonour(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../configs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fig2, fig3 := read("abrahamsen-hansen-fig2.yaml"), read("abrahamsen-hansen-fig3.yaml")
	// lineOf is the line of the first occurrence of s in src, as the
	// error names it (the shipped configs' layout may change).
	lineOf := func(src, s string) string {
		i := strings.Index(src, s)
		if strings.HasPrefix(s, "\n") {
			i++ // the line after the newline
		}
		return "c.yaml:" + strconv.Itoa(strings.Count(src[:i], "\n")+1) + ":"
	}
	fc := strings.Replace(fig2, "fixed_components: 5 ", "fixed_components: 1000000000 ", 1)
	fw := strings.Replace(fig2, "fixed_width: 0.2", "fixed_width: 0.3", 1)
	lm := strings.Replace(fig3, "\nkind: local-minima\n", "\nkind: local-minima\ncorruption: {type: gaussian, std: 0.1, copies: 1000000000}\n", 1)
	dc := strings.Replace(fig2, "\nkind: distortion\n", "\nkind: distortion\ncorruption:\n  type: gaussian\n  std: 0.1\n", 1)
	// classify, kkcluster and missing corrupt nothing either (issue #46:
	// huang-fig5's records were the same with and without a corruption
	// section); nguyen-table1's "type: none" alone says so and passes.
	fig5, lpkpca, nguyen := read("huang-fig5.yaml"), read("zheng-lpkpca-table1.yaml"), read("nguyen-table1.yaml")
	kk := strings.Replace(fig5, "\nkind: kkcluster\n", "\nkind: kkcluster\ncorruption: {type: gaussian, std: 0.06}\n", 1)
	cl := strings.Replace(lpkpca, "\nkind: classify\n", "\nkind: classify\ncorruption: {type: occlusion, min_side: 2, max_side: 4}\n", 1)
	mi := strings.Replace(nguyen, "corruption:\n  type: none\n", "corruption:\n  type: gaussian\n  std: 0.1\n", 1)
	mn := strings.Replace(nguyen, "corruption:\n  type: none\n", "corruption:\n  type: none\n  copies: 3\n", 1)
	// A start rule where the kind starts every iteration itself: fig3
	// from every training point, fig5 from its random starts.
	fig5ah := read("abrahamsen-hansen-fig5.yaml")
	st3 := strings.Replace(fig3, "      max_iter: 1000\n", "      max_iter: 1000\n      start: mean\n", 1)
	st5 := strings.Replace(fig5ah, "params: {max_iter: 1000}\n", "params: {max_iter: 1000, start: nearest}\n", 1)
	for _, tc := range []struct {
		name, src, want string
	}{
		{"start rule in local-minima", st3, lineOf(st3, "      start: mean") + " methods[0].params.start: local-minima starts every iteration itself, from every training point"},
		{"start rule in stability", st5, lineOf(st5, "start: nearest") + " methods[0].params.start: stability starts every iteration itself"},
		{"fixed_components off the grid", fc,
			lineOf(fc, "fixed_components: 1") + " experiment.fixed_components: 1000000000 is not in model.components [2 3 5 10 20 50]"},
		{"fixed_width off the grid", fw, lineOf(fw, "fixed_width: 0.3") + " experiment.fixed_width: 0.3 is not in model.c"},
		{"corruption in local-minima", lm, lineOf(lm, "\ncorruption:") + " corruption: local-minima corrupts nothing"},
		{"corruption in distortion", dc, lineOf(dc, "\n  type: gaussian") + " corruption: distortion corrupts nothing"},
		{"corruption in kkcluster", kk, lineOf(kk, "\ncorruption:") + " corruption: kkcluster corrupts nothing"},
		{"corruption in classify", cl, lineOf(cl, "\ncorruption:") + " corruption: classify corrupts nothing"},
		{"corruption in missing", mi, lineOf(mi, "\n  type: gaussian") + " corruption: missing corrupts nothing"},
		{"type none with copies in missing", mn, lineOf(mn, "\n  type: none") + " corruption: missing corrupts nothing"},
	} {
		c, err := config.Parse("c.yaml", []byte(tc.src))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	// The configs as committed pass.
	for _, src := range []string{fig2, fig3, fig5, fig5ah, lpkpca, nguyen} {
		c, err := config.Parse("c.yaml", []byte(src))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			t.Errorf("a committed config refused: %v", err)
		}
	}
}
