package report

// PaperFit is how close one run's values come to the values the paper
// prints in one of its tables (its "reading fit"): the median over
// the table's cells of |ln(ours/paper)|, 0 when every value is as printed
// and ln 2 ≈ 0.69 when the typical cell is off by a factor of 2 either
// way. tables.PaperFits computes it from a config's reference values and
// its records; the runner writes it to the manifest, the scoreboard and
// the run pages compare a base with its readings by it.
type PaperFit struct {
	// Part names the printed table's part ("" for a table of one part).
	Part string `json:"part"`
	// Interpretation names, where the config references one printed
	// number under several metrics (interpretations of the paper's
	// unit), the one this fit is over: the paper table's column of its
	// references; "" where there is one. A fit never pools two.
	// Supported reports whether the paper's text supports it
	// (config.PaperTable.Supported; true when the config names none).
	Interpretation string `json:"interpretation,omitempty"`
	Supported      bool   `json:"supported"`
	// Distance is the median |ln(ours/paper)| over Cells cells; 0 when
	// Cells is 0 (there is then no distance).
	Distance float64 `json:"distance"`
	// Cells counts the cells compared; Excluded those where the log is
	// undefined (a zero, or opposite signs); Missing those where ours is
	// absent (no record, a failed cell, a value not finite).
	Cells    int `json:"cells"`
	Excluded int `json:"excluded"`
	Missing  int `json:"missing"`
}

// FitFactor and FitMinCells are the rule by which a reading fits the
// printed numbers clearly better than the stated protocol
// ([FitsClearlyBetter]): its distance is at most 1/FitFactor of the
// base's, both over at least FitMinCells cells. A factor of 2 keeps a
// reading that only shaves the typical error from being named; three
// cells keep one lucky cell from deciding.
const (
	FitFactor   = 2
	FitMinCells = 3
)

// FitsClearlyBetter reports whether the reading's fit to a printed table
// is clearly better than the base's by the rule of FitFactor and
// FitMinCells.
func FitsClearlyBetter(reading, base PaperFit) bool {
	return base.Cells >= FitMinCells && reading.Cells >= FitMinCells && reading.Distance*FitFactor <= base.Distance
}
