package paperreport

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// detectConfig is a de-noising config of two methods and the noisy input
// (identity) over energy, whose best check reads mae_mean with sense min.
func detectConfig() *config.Config {
	return &config.Config{
		Name:    "fixture",
		Methods: []config.Method{{Name: "identity", Label: "Base Line"}, {Name: "mika", Label: "Mika"}, {Name: "rkpca", Label: "RKPCA"}},
		Claims: []config.Claim{{ID: "c1", Check: config.Section{Values: map[string]any{
			"type": "best", "metric": "mae_mean", "winner": "RKPCA", "sense": "min"}}}},
	}
}

func rec(method string, energy, mae float64, extra map[string]float64) report.Record {
	m := map[string]float64{"mae_mean": mae}
	for k, v := range extra {
		m[k] = v
	}
	return report.Record{Params: map[string]any{"method": method, "energy": energy}, Metrics: m, Status: report.StatusOK}
}

// TestWorseThanInput: a method above the noisy input's error at every
// energy is named with its range and the input's (Nguyen Table 2: Mika
// 11.5–18.2 against Base Line 8.118); one below it at a single energy is
// not, and neither is any method on a config without a noisy input.
func TestWorseThanInput(t *testing.T) {
	c := detectConfig()
	recs := []report.Record{
		rec("Base Line", 0.8, 8.118, nil), rec("Mika", 0.8, 18.2, nil), rec("RKPCA", 0.8, 7.5, nil),
		rec("Base Line", 1, 8.118, nil), rec("Mika", 1, 11.5, nil), rec("RKPCA", 1, 9, nil),
	}
	got := worseThanInput(c, recs)
	if len(got) != 1 || !strings.Contains(got[0].Text, "Mika scores worse than the noisy input it de-noises (Base Line: 8.118) at every energy: Mika 11.5–18.2") || strings.Contains(got[0].Text, "RKPCA") {
		t.Errorf("positive fixture: %+v", got)
	}
	// Negative: Mika below the input at one energy.
	recs[4].Metrics["mae_mean"] = 8
	if got := worseThanInput(c, recs); len(got) != 0 {
		t.Errorf("a method better than the input at one energy was named: %+v", got)
	}
	// Negative: no identity method and no noisy_ metric.
	c.Methods = c.Methods[1:]
	recs[4].Metrics["mae_mean"] = 11.5
	if got := worseThanInput(c, recs[1:]); len(got) != 0 {
		t.Errorf("without a noisy input: %+v", got)
	}
}

// TestWorseThanNoisyMetric: where the records score the input under
// noisy_Q_G beside Q_mean_G (Huang's APE per group), a method above it in
// every record is named; one below it is not.
func TestWorseThanNoisyMetric(t *testing.T) {
	c := &config.Config{Name: "fixture", Methods: []config.Method{{Name: "honeine-richard", Label: "H&R"}, {Name: "local-gram", Label: "Ours"}},
		Claims: []config.Claim{{ID: "c1", Check: config.Section{Values: map[string]any{"type": "best", "metric": "ape_mean_normal", "sense": "min"}}}}}
	recs := []report.Record{
		{Params: map[string]any{"method": "H&R"}, Metrics: map[string]float64{"ape_mean_normal": 26.9, "noisy_ape_normal": 12.2}, Status: report.StatusOK},
		{Params: map[string]any{"method": "Ours"}, Metrics: map[string]float64{"ape_mean_normal": 7.5, "noisy_ape_normal": 12.2}, Status: report.StatusOK},
	}
	got := worseThanInput(c, recs)
	if len(got) != 1 || !strings.Contains(got[0].Text, "H&R scores worse than the noisy input it de-noises (the noisy input (noisy_ape_normal): 12.2)") || strings.Contains(got[0].Text, "Ours ") {
		t.Errorf("positive fixture: %+v", got)
	}
	recs[0].Metrics["ape_mean_normal"] = 11
	if got := worseThanInput(c, recs); len(got) != 0 {
		t.Errorf("negative fixture: %+v", got)
	}
}

// TestFlatOverGrid: a method whose metric stays within 15% over a grid on
// which another's moves by a factor 2 or more is named (A&H Fig. 4's
// Dambreville at ≈ 0.6 for every c and #PCs); the noisy input, flat by
// construction, is not; and nothing is named when every method moves or
// none does.
func TestFlatOverGrid(t *testing.T) {
	c := detectConfig()
	c.Model.WidthName = "c"
	c.Claims[0].Check.Values["metric"] = "mse_median"
	var recs []report.Record
	for i, cv := range []float64{10, 100, 1000, 5000} {
		for _, m := range []struct {
			label string
			v     float64
		}{{"Dambreville", 0.6 + 0.001*float64(i)}, {"Mika", 0.2 + 0.3*float64(i)}, {"Base Line", 0.9}} {
			recs = append(recs, report.Record{Params: map[string]any{"method": m.label, "c": cv}, Metrics: map[string]float64{"mse_median": m.v}, Status: report.StatusOK})
		}
	}
	got := flatOverGrid(c, recs)
	if len(got) != 1 || !strings.HasPrefix(got[0].Text, "Dambreville's `mse_median` stays at 0.6–0.603 over all 4 of its cells (c)") {
		t.Errorf("positive fixture: %+v", got)
	}
	// Negative: Dambreville moves too.
	for i := range recs {
		if recs[i].Params["method"] == "Dambreville" {
			recs[i].Metrics["mse_median"] *= 1 + float64(i)
		}
	}
	if got := flatOverGrid(c, recs); len(got) != 0 {
		t.Errorf("every method moves: %+v", got)
	}
}

// TestCapsHit: the fits a solver left at its cap are counted with the cap
// (Nguyen Table 1: RKPCA's 555203 at max_iter 100); a config whose
// solvers all converged says nothing.
func TestCapsHit(t *testing.T) {
	c := &config.Config{Name: "fixture"}
	recs := []report.Record{
		{Params: map[string]any{"method": "RKPCA", "max_iter": 100}, Metrics: map[string]float64{"nonconverged_fits": 555203}, Status: report.StatusOK},
		{Params: map[string]any{"method": "PPCA", "max_iter": 2000}, Metrics: map[string]float64{"nonconverged_fits": 0}, Status: report.StatusOK},
	}
	got := capsHit(c, recs)
	if len(got) != 1 || !strings.Contains(got[0].Text, "RKPCA: 555203 fits at the cap (max_iter 100)") || strings.Contains(got[0].Text, "PPCA") {
		t.Errorf("positive fixture: %+v", got)
	}
	recs[0].Metrics["nonconverged_fits"] = 0
	if got := capsHit(c, recs); len(got) != 0 {
		t.Errorf("negative fixture: %+v", got)
	}
}

// TestSensesContradict: a metric one best check reads with min and
// another with max has no direction, and no method is called worse than
// the input on it.
func TestSensesContradict(t *testing.T) {
	c := detectConfig()
	c.Claims = append(c.Claims, config.Claim{ID: "c2", Check: config.Section{Values: map[string]any{"type": "best", "metric": "mae_mean", "sense": "max"}}})
	recs := []report.Record{rec("Base Line", 1, 8, nil), rec("Mika", 1, 18, nil)}
	if got := worseThanInput(c, recs); len(got) != 0 {
		t.Errorf("a metric read both ways: %+v", got)
	}
}
