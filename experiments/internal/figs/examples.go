package figs

// Examples splits a record's examples array, n images of d pixels one
// after another, into a row of an image grid: image k, or nil where the
// array stops before it (a failed cell keeps fewer examples, or none), so
// that the grid leaves that cell blank.
func Examples(ex []float64, n, d int) [][]float64 {
	var row [][]float64
	for k := range n {
		var img []float64
		if len(ex) >= (k+1)*d {
			img = ex[k*d : (k+1)*d]
		}
		row = append(row, img)
	}
	return row
}
