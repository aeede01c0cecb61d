package datasets

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRescale: the USPS map [−1, 1] → [0, 1] sends the background −1 to 0
// and the ink 1 to 1, midpoints to midpoints, and is bit-identical to the
// closed form lo + (v+1)/2·(hi−lo) the loader used before; [0, 1] → [lo, hi]
// is lo + v·(hi−lo).
func TestRescale(t *testing.T) {
	vals := []float64{-1, -0.5, 0, 0.3, 1}
	x := mat.NewDense(1, len(vals), append([]float64(nil), vals...))
	if err := Rescale(x, [2]float64{-1, 1}, [2]float64{0, 1}); err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 0.25, 0.5, 0.65, 1}
	for j, v := range vals {
		if got := x.At(0, j); math.Abs(got-want[j]) > 1e-15 || got != 0+(v+1)/2*(1-0) {
			t.Errorf("[−1, 1] → [0, 1]: %g ↦ %g, want %g", v, got, want[j])
		}
	}
	lo, hi := -0.3, 2.7
	y := mat.NewDense(1, 3, []float64{0, 0.1, 1})
	if err := Rescale(y, [2]float64{0, 1}, [2]float64{lo, hi}); err != nil {
		t.Fatal(err)
	}
	for j, v := range []float64{0, 0.1, 1} {
		if got := y.At(0, j); got != lo+v*(hi-lo) {
			t.Errorf("[0, 1] → [%g, %g]: %g ↦ %g, want %g", lo, hi, v, got, lo+v*(hi-lo))
		}
	}
	if err := Rescale(y, [2]float64{1, 1}, [2]float64{0, 1}); err == nil {
		t.Error("an empty source range was accepted")
	}
	if err := Rescale(y, [2]float64{0, 1}, [2]float64{1, 0}); err == nil {
		t.Error("a reversed target range was accepted")
	}
}

// pieFixture is six 1×2 "images" of three subjects: four expression images
// and two with the room lights off.
func pieFixture() (*Set, []PIEInfo) {
	x := mat.NewDense(6, 2, []float64{0, 255, 51, 102, 255, 0, 10, 20, 30, 40, 50, 60})
	info := []PIEInfo{
		{Subset: "expression", Condition: "smile", Pose: "C27"},
		{Subset: "expression", Condition: "neutral", Pose: "C05"},
		{Subset: "illum_roomlights_off", Condition: "flash", Pose: "C27"},
		{Subset: "expression", Condition: "smile", Pose: "C05"},
		{Subset: "talking", Condition: "talk", Pose: "C27"},
		{Subset: "illum_roomlights_off", Condition: "flash", Pose: "C09"},
	}
	return &Set{X: x, Labels: []int{0, 0, 1, 1, 2, 2}, Width: 2, Height: 1}, info
}

// TestSelectPIE10 checks the selection by subset and subject, the scaling
// to [0, 1] (255 ↦ 1, 51 ↦ 0.2) and labels numbered in order of first
// appearance, on a hand-made index.
func TestSelectPIE10(t *testing.T) {
	all, info := pieFixture()
	set, err := SelectPIE10(all, info, PIE10Selection{Subset: "expression", Labels: "expression"})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := set.X.Dims(); r != 3 || set.Name != "pie10-expression" || set.Width != 2 || set.Height != 1 {
		t.Fatalf("kept %d rows of %s (%d×%d), want rows 0, 1, 3 of pie10-expression", r, set.Name, set.Width, set.Height)
	}
	if !mat.Equal(set.X, mat.NewDense(3, 2, []float64{0, 1, 0.2, 0.4, 10.0 / 255, 20.0 / 255})) {
		t.Errorf("pixels %v, want rows 0, 1, 3 divided by 255", mat.Formatted(set.X))
	}
	if got := set.Labels; got[0] != 0 || got[1] != 1 || got[2] != 0 || strings.Join(set.LabelNames, ",") != "smile,neutral" {
		t.Errorf("labels %v %v, want [0 1 0] smile,neutral", got, set.LabelNames)
	}
	set, err = SelectPIE10(all, info, PIE10Selection{Subset: "poses", Labels: "subject", Subjects: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := set.X.Dims(); r != 1 || set.X.At(0, 0) != 50.0/255 || set.LabelNames[0] != "subject03" {
		t.Errorf("poses of subject 2: %v %v, want row 5 as subject03", mat.Formatted(set.X), set.LabelNames)
	}
	set, err = SelectPIE10(all, info, PIE10Selection{Subset: "poses", Labels: "pose"})
	if err != nil || strings.Join(set.LabelNames, ",") != "C27,C09" {
		t.Errorf("pose labels %v (%v), want C27,C09", set, err)
	}
	for _, o := range []PIE10Selection{
		{Subset: "poses", Labels: "pose", Subjects: []int{0}}, // subject 0 has no pose images
		{Subset: "talking", Labels: "pose"},
		{Subset: "poses", Labels: "flash"},
	} {
		if _, err := SelectPIE10(all, info, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := SelectPIE10(all, info[:3], PIE10Selection{Subset: "poses", Labels: "pose"}); err == nil {
		t.Error("an index shorter than the images was accepted")
	}
}

// TestHash: equal contents hash equal whatever the matrix, a changed value
// or shape changes the hash, and the memo returns the first hash for a
// matrix it has seen (the data of a run is never changed after loading).
func TestHash(t *testing.T) {
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	b := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	c := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	d := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, math.Nextafter(6, 7)})
	ha := Hash(a)
	if len(ha) != 32 || Hash(b) != ha {
		t.Errorf("equal matrices: %q and %q", ha, Hash(b))
	}
	if Hash(c) == ha || Hash(d) == ha {
		t.Error("another shape or value gives the same hash")
	}
	a.Set(0, 0, 9)
	if Hash(a) != ha {
		t.Error("the hash of a seen matrix was recomputed")
	}
}

// TestWriteDenseBytes: WriteDense writes the shape, then every value row
// by row, eight little-endian bytes each, whatever its buffering (the
// bytes are cache keys: changing them would orphan every cached cell); a
// 37×61 matrix crosses its 4096-byte buffer several times.
func TestWriteDenseBytes(t *testing.T) {
	x := mat.NewDense(37, 61, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = math.Sqrt(float64(i)) - 20
	}
	var want []byte
	want = binary.LittleEndian.AppendUint64(want, 37)
	want = binary.LittleEndian.AppendUint64(want, 61)
	for _, v := range x.RawMatrix().Data {
		want = binary.LittleEndian.AppendUint64(want, math.Float64bits(v))
	}
	var got bytes.Buffer
	WriteDense(&got, x)
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteDense wrote %d bytes, not the %d of the shape and the values in order", got.Len(), len(want))
	}
}
