package methods

// LocalMetrics is a pre-imager whose pre-image of a point is computed with
// a local metric P_t interpolated from its neighbours' own metrics P_i
// (Huang, Tian & De la Torre 2011, eq. 7), and which can show how: the
// weights α_i and the pre-image with each P_i in place of P_t, the anatomy
// of their Fig. 6. It is optional: an experiment that draws Fig. 6 asks a
// PreImager for it and skips the figure for estimators without one.
type LocalMetrics interface {
	PreImager
	// Detail computes the pre-image of row r of p into z and returns the
	// neighbours, their α_i and the pre-image with each P_i.
	Detail(z []float64, p *Problem, r int) (*LocalGramDetail, Status, error)
}

var _ LocalMetrics = (*LocalGram)(nil)
