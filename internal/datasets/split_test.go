package datasets

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestTrainSize(t *testing.T) {
	// ⌊0.5·5⌋ = 2, ⌈0.5·5⌉ = 3, ⌊0.3·10⌋ = ⌈0.3·10⌉ = 3 (0.3·10 is exactly
	// 3 in floating point).
	for _, tc := range []struct {
		size TrainSize
		n    int
		want int
	}{
		{TrainCount(4), 9, 4}, {TrainFloor(0.5), 5, 2}, {TrainCeil(0.5), 5, 3},
		{TrainFloor(0.3), 10, 3}, {TrainCeil(0.3), 10, 3}, {TrainCeil(0.5), 4, 2},
	} {
		if got := tc.size(tc.n); got != tc.want {
			t.Errorf("size(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

func TestStratified(t *testing.T) {
	// Class 1 holds rows 0, 2, 4, 6 and class 0 rows 1, 3, 5, 7, 8, 9:
	// ⌊0.5·6⌋ = 3 and ⌊0.5·4⌋ = 2 training rows.
	labels := []int{1, 0, 1, 0, 1, 0, 1, 0, 0, 0}
	one := func() func(int) *rand.Rand {
		r := rand.New(rand.NewPCG(1, 2))
		return func(int) *rand.Rand { return r }
	}
	s, err := Stratified(labels, TrainFloor(0.5), one())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Train) != 5 || len(s.Test) != 5 {
		t.Fatalf("sizes %d/%d, want 5/5", len(s.Train), len(s.Test))
	}
	count := map[int]int{}
	seen := map[int]bool{}
	for _, i := range s.Train {
		count[labels[i]]++
		seen[i] = true
	}
	for _, i := range s.Test {
		if seen[i] {
			t.Errorf("row %d in both parts", i)
		}
		seen[i] = true
	}
	if len(seen) != 10 || count[0] != 3 || count[1] != 2 {
		t.Errorf("covered %d rows, training per class %v; want all 10 and map[0:3 1:2]", len(seen), count)
	}
	if !sort.IntsAreSorted(s.Train) || !sort.IntsAreSorted(s.Test) {
		t.Errorf("parts not increasing: %v %v", s.Train, s.Test)
	}
	// The documented draws: class 0 then class 1 from the one stream, each
	// taking the first n of its rows in the order of rnd.Perm.
	r := rand.New(rand.NewPCG(1, 2))
	var want []int
	for _, c := range []struct {
		rows []int
		n    int
	}{{[]int{1, 3, 5, 7, 8, 9}, 3}, {[]int{0, 2, 4, 6}, 2}} {
		p := r.Perm(len(c.rows))
		for _, k := range p[:c.n] {
			want = append(want, c.rows[k])
		}
	}
	sort.Ints(want)
	if !reflect.DeepEqual(s.Train, want) {
		t.Errorf("training rows %v, want %v from rnd.Perm", s.Train, want)
	}
	again, _ := Stratified(labels, TrainFloor(0.5), one())
	if !reflect.DeepEqual(again, s) {
		t.Errorf("not deterministic: %v then %v", s, again)
	}
	// A stream per class: class 1's rows do not depend on class 0's draws.
	per := func(seed0 uint64) func(int) *rand.Rand {
		return func(c int) *rand.Rand {
			if c == 0 {
				return rand.New(rand.NewPCG(seed0, 0))
			}
			return rand.New(rand.NewPCG(9, 9))
		}
	}
	a, _ := Stratified(labels, TrainCeil(0.5), per(1))
	b, _ := Stratified(labels, TrainCeil(0.5), per(2))
	class1 := func(s Split) (out []int) {
		for _, i := range s.Train {
			if labels[i] == 1 {
				out = append(out, i)
			}
		}
		return out
	}
	if !reflect.DeepEqual(class1(a), class1(b)) {
		t.Errorf("class 1 changed with class 0's stream: %v vs %v", class1(a), class1(b))
	}
	if _, err := Stratified(labels, TrainCount(4), one()); err == nil {
		t.Error("4 training rows of a 4-row class: no error")
	}
	if _, err := Stratified(labels, TrainCount(0), one()); err == nil {
		t.Error("no training rows: no error")
	}
}

func TestGroupDisjoint(t *testing.T) {
	// Five groups of 2 rows (group g holds rows 2g and 2g+1): targets
	// 4, 2, 2 take exactly 2, 1 and 1 groups, and one group is left over.
	var groups []int
	for g := range 5 {
		groups = append(groups, g, g)
	}
	s := GroupDisjoint(groups, []int{4, 2, 2}, rand.New(rand.NewPCG(3, 3)))
	sizes := []int{len(s.Parts[0]), len(s.Parts[1]), len(s.Parts[2])}
	if !reflect.DeepEqual(sizes, []int{4, 2, 2}) || !reflect.DeepEqual(s.Groups, []int{2, 1, 1}) {
		t.Fatalf("sizes %v groups %v, want [4 2 2] [2 1 1]", sizes, s.Groups)
	}
	owner := map[int]int{}
	for p, rows := range s.Parts {
		if !sort.IntsAreSorted(rows) {
			t.Errorf("part %d not increasing: %v", p, rows)
		}
		for _, i := range rows {
			if q, ok := owner[groups[i]]; ok && q != p {
				t.Errorf("group %d in parts %d and %d", groups[i], q, p)
			}
			owner[groups[i]] = p
		}
	}
	// The groups in the order of rnd.Perm(5), as documented.
	perm := rand.New(rand.NewPCG(3, 3)).Perm(5)
	want := []int{2 * perm[0], 2*perm[0] + 1, 2 * perm[1], 2*perm[1] + 1}
	sort.Ints(want)
	if !reflect.DeepEqual(s.Parts[0], want) {
		t.Errorf("first part %v, want %v", s.Parts[0], want)
	}
	// Groups of 3 rows against a target of 4: one group (|3−4| = 1) is
	// closer than two (|6−4| = 2), so the part stops at 3 rows.
	s = GroupDisjoint([]int{0, 0, 0, 1, 1, 1, 2, 2, 2}, []int{4, 3}, rand.New(rand.NewPCG(1, 1)))
	if len(s.Parts[0]) != 3 || len(s.Parts[1]) != 3 {
		t.Errorf("sizes %d, %d; want 3, 3", len(s.Parts[0]), len(s.Parts[1]))
	}
}

func TestSelectRows(t *testing.T) {
	s := &Set{Name: "x", X: mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}), Labels: []int{7, 8, 9}, LabelNames: []string{"a"}, Width: 2, Height: 1}
	got := SelectRows(s, "y", []int{2, 0})
	if !mat.Equal(got.X, mat.NewDense(2, 2, []float64{5, 6, 1, 2})) || !reflect.DeepEqual(got.Labels, []int{9, 7}) || got.Width != 2 || got.Name != "y" {
		t.Errorf("SelectRows = %+v", got)
	}
	if e := SelectRows(s, "e", nil); !e.X.IsEmpty() {
		t.Errorf("empty selection has X %v", e.X)
	}
}
