package cluster

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPurityChanceSmall: two clusters of two points against two classes of
// two. Of the 4!/(2!·2!) = 6 equally likely class arrangements, 2 match
// the clusters (purity 1) and 4 split each cluster (purity 1/2), so chance
// purity is (2·1 + 4·0.5)/6 = 2/3 (hand-derived) and a perfect clustering
// is matched or beaten by a third of the permutations: p → 1/3. Tolerance:
// 4 standard errors of the Monte Carlo mean over 20000 permutations (the
// purity's sd is √(2/9)/2 ≈ 0.236, so 4·0.236/√20000 ≈ 0.0067).
func TestPurityChanceSmall(t *testing.T) {
	labels, classes := []int{0, 0, 1, 1}, []int{0, 0, 1, 1}
	mean, p := PurityChance(labels, classes, 20000, rand.New(rand.NewPCG(1, 2)))
	if math.Abs(mean-2.0/3) > 0.0067 {
		t.Errorf("chance purity %v, want 2/3 ± 0.0067", mean)
	}
	if math.Abs(p-1.0/3) > 0.0134 {
		t.Errorf("p of a perfect clustering %v, want 1/3 ± 0.0134", p)
	}
}

// TestPurityChanceSeparates: a perfect clustering of 5 balanced classes of
// 21 (Huang's 105 pose images) is far above chance (p = 1/(1+perms), the
// smallest possible: no permutation of so many points matches it), while
// a clustering that ignores the classes (cluster = index mod 5, which
// cuts every class evenly) sits at the bottom of the chance range (p = 1).
func TestPurityChanceSeparates(t *testing.T) {
	const k, per, perms = 5, 21, 999
	classes := make([]int, k*per)
	perfect := make([]int, k*per)
	blind := make([]int, k*per)
	for i := range classes {
		classes[i] = i / per
		perfect[i] = i / per
		blind[i] = i % k
	}
	_, p := PurityChance(perfect, classes, perms, rand.New(rand.NewPCG(3, 4)))
	if p != 1.0/(1+perms) {
		t.Errorf("perfect clustering: p %v, want %v", p, 1.0/(1+perms))
	}
	mean, p := PurityChance(blind, classes, perms, rand.New(rand.NewPCG(5, 6)))
	if p != 1 {
		t.Errorf("blind clustering (purity %v, chance %v): p %v, want 1", Purity(blind, classes), mean, p)
	}
	if mean <= 1.0/k || mean >= 0.5 {
		t.Errorf("chance purity of 5 balanced classes %v, want above 1/5 and well below 1/2", mean)
	}
}
