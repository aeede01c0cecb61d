package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Split is a partition of a set's rows into training and test rows, each
// list in increasing row order.
type Split struct {
	Train, Test []int
}

// TrainSize says how many of a class's n rows go to training.
type TrainSize func(n int) int

// TrainCount puts k rows of every class into training.
func TrainCount(k int) TrainSize { return func(int) int { return k } }

// TrainFloor puts ⌊f·n⌋ of a class's n rows into training (Zheng et al.'s
// "half of each class").
func TrainFloor(f float64) TrainSize {
	return func(n int) int { return int(math.Floor(f * float64(n))) }
}

// TrainCeil puts ⌈f·n⌉ of a class's n rows into training (Huang et al.'s
// 50/50 split of each expression group, the odd image to training).
func TrainCeil(f float64) TrainSize {
	return func(n int) int { return int(math.Ceil(f * float64(n))) }
}

// Stratified splits the rows of every class (label) into training and test
// rows: for each class in increasing label order, its rows in data order
// are shuffled with one rnd(class).Shuffle call and the first size(n) go to
// training, the rest to test.
//
// rnd is asked for each class's stream in increasing label order, so a
// caller may hand out one stream for every class (the draws of each class
// follow those of the previous one: the classify kind's "split/<s>") or a
// stream per class (the lgdenoise kind's "split:<group>", so a group's
// split does not depend on the others). Since rand.Perm is one Shuffle of
// 0..n−1, taking rows[perm[k]] for the first k of rnd.Perm(n) selects the
// same rows as this function.
//
// Stratified returns an error, naming the class, when size leaves a class
// without a training or a test row.
func Stratified(labels []int, size TrainSize, rnd func(class int) *rand.Rand) (Split, error) {
	classes, byClass := ByClass(labels)
	sort.Ints(classes)
	var s Split
	for _, c := range classes {
		rows := byClass[c]
		r := rnd(c)
		r.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		n := size(len(rows))
		if n < 1 || n >= len(rows) {
			return Split{}, fmt.Errorf("class %d has %d images; %d for training leaves no test or no training image", c, len(rows), n)
		}
		s.Train = append(s.Train, rows[:n]...)
		s.Test = append(s.Test, rows[n:]...)
	}
	sort.Ints(s.Train)
	sort.Ints(s.Test)
	return s, nil
}

// GroupSplit is a group-disjoint partition of a set's rows.
type GroupSplit struct {
	// Parts holds each part's rows in increasing order.
	Parts [][]int
	// Groups is the number of whole groups in each part.
	Groups []int
}

// GroupDisjoint assigns whole groups (subjects) to len(target) parts so
// that no group appears in two parts: the distinct groups, sorted, are put
// in the order of one rnd.Perm, and each part in turn takes the next group
// while that brings its row count strictly closer to its target; the
// groups left when the last part stops are used by none. This is Nguyen &
// De la Torre's 700/100/300 images split by subject, as close to the
// targets as whole subjects allow.
func GroupDisjoint(groups []int, target []int, rnd *rand.Rand) GroupSplit {
	gs, byG := ByClass(groups)
	sort.Ints(gs)
	perm := rnd.Perm(len(gs))
	out := GroupSplit{Parts: make([][]int, len(target)), Groups: make([]int, len(target))}
	next := 0
	for s, t := range target {
		for next < len(perm) {
			rows := byG[gs[perm[next]]]
			cur := len(out.Parts[s])
			if absInt(cur+len(rows)-t) >= absInt(cur-t) {
				break
			}
			out.Parts[s] = append(out.Parts[s], rows...)
			out.Groups[s]++
			next++
		}
		sort.Ints(out.Parts[s])
	}
	return out
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// SelectRows returns a new set holding the given rows of s, in that order,
// with their labels and s's label names and image size; name names it.
// An empty selection gives an empty X.
func SelectRows(s *Set, name string, rows []int) *Set {
	out := &Set{Name: name, X: &mat.Dense{}, LabelNames: s.LabelNames, Width: s.Width, Height: s.Height}
	_, d := s.X.Dims()
	if len(rows) > 0 {
		out.X = mat.NewDense(len(rows), d, nil)
	}
	for k, i := range rows {
		out.X.SetRow(k, s.X.RawRowView(i))
		if s.Labels != nil {
			out.Labels = append(out.Labels, s.Labels[i])
		}
	}
	return out
}

// ByClass groups row indices by label: classes in order of first
// appearance, and for each class its rows in increasing order.
func ByClass(labels []int) (classes []int, rows map[int][]int) {
	rows = map[int][]int{}
	for i, l := range labels {
		if _, ok := rows[l]; !ok {
			classes = append(classes, l)
		}
		rows[l] = append(rows[l], i)
	}
	return classes, rows
}
