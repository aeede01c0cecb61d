package cluster

import (
	"fmt"
	"math/rand/v2"
)

// PurityChance is the purity a partition labels would have by chance
// against classes: the mean purity over perms random permutations of the
// classes (the same cluster sizes and class counts, the assignment
// shuffled), and the permutation p-value of the observed purity, the
// fraction of permutations (the observed one counted) whose purity is at
// least it: (1 + #{perm ≥ observed}) / (1 + perms). A clustering "no
// better than chance" has a large p; Huang et al.'s raw-pixel kernel
// "clusters poorly" (claim c7) is judged on it rather than on an assumed
// chance level, which for unequal cluster sizes is above 1/classes.
func PurityChance(labels, classes []int, perms int, rnd *rand.Rand) (mean, p float64) {
	if perms < 1 {
		panic(fmt.Sprintf("cluster: %d permutations", perms))
	}
	obs := Purity(labels, classes)
	shuffled := append([]int(nil), classes...)
	var sum float64
	atLeast := 0
	for range perms {
		rnd.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		v := Purity(labels, shuffled)
		sum += v
		if v >= obs {
			atLeast++
		}
	}
	return sum / float64(perms), float64(1+atLeast) / float64(1+perms)
}
