package metrics

import "gonum.org/v1/gonum/floats"

// GreedyClusters groups points that lie within tol of each other: in
// order, a point joins the first existing cluster whose centre (the
// cluster's first point) is within Euclidean distance tol, or starts a new
// cluster. It returns the size of each cluster in order of creation. The
// number of clusters is how Abrahamsen & Hansen (2011) Fig. 3's "number of
// distinct pre-images" is counted (claim c8). When the points fall into
// groups of diameter at most tol that lie more than tol apart, each group
// is one cluster whatever the order; otherwise the count can depend on it.
func GreedyClusters(points [][]float64, tol float64) []int {
	var centres [][]float64
	var sizes []int
	for _, p := range points {
		found := false
		for c, ctr := range centres {
			if floats.Distance(p, ctr, 2) <= tol {
				sizes[c]++
				found = true
				break
			}
		}
		if !found {
			centres = append(centres, p)
			sizes = append(sizes, 1)
		}
	}
	return sizes
}
