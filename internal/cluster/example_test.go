package cluster_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/cluster"
)

// Purity credits each cluster with its majority class: the example of
// Manning, Raghavan & Schütze, Introduction to Information Retrieval,
// Fig. 16.4 (clusters of 6, 6 and 5 points with majorities 5, 4 and 3)
// has purity (5 + 4 + 3)/17 ≈ 0.71.
func ExamplePurity() {
	// x = 0, circle = 1, diamond = 2, as in the book's figure.
	clusters := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2}
	classes := []int{0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2}
	fmt.Printf("%.2f\n", cluster.Purity(clusters, classes))
	// Output:
	// 0.71
}
