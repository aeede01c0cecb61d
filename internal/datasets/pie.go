package datasets

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Files of the CMU PIE copies in the data root (see PROVENANCE.md).
const (
	PIE68File    = "cmu_pie/PIE_68x42_32x32.mat"
	PIE10File    = "cmu_pie/PIE_32x32_first10subj.mat"
	PIE10MapFile = "cmu_pie/pie_32x32_within_subject_index_map.csv"
)

// pieSide is the side of the 32×32 PIE images.
const pieSide = 32

// LoadPIE68 loads the frontal CMU PIE faces (camera C27, neutral
// expression): 68 subjects × 42 lightings, the 21 flashes with the room
// lights off and then the same 21 with them on.
//
// The file stores fea as 1024×2856, one image per column, each image in
// MATLAB's column-major order; the returned Set has one 32×32 image per row
// in row-major order, values 0–255, Labels the subject 0–67. index[i] is the
// image's position 0–41 within its subject, in file order.
func LoadPIE68(r *Root) (set *Set, index []int, err error) {
	x, subj, err := loadPIEMat(r, PIE68File, true)
	if err != nil {
		return nil, nil, err
	}
	index, err = withinSubject(PIE68File, subj, 42)
	if err != nil {
		return nil, nil, err
	}
	return &Set{Name: "pie68", X: x, Labels: subj, Width: pieSide, Height: pieSide}, index, nil
}

// PIEInfo describes one image of the 10-subject CMU PIE file, from the
// within-subject index map in the data root.
type PIEInfo struct {
	// Index is the image's position 0–169 within its subject.
	Index int
	// Pose is the camera: C05, C07, C09, C27 or C29 (inferred, see
	// PROVENANCE.md).
	Pose string
	// Subset is the map's subset_inferred column: expression,
	// illum_roomlights_off, lights_roomlights_on or talking.
	Subset string
	// Condition is the map's condition column (blink, neutral, smile,
	// flash, ...).
	Condition string
	// Flash is the map's flash ordinal or frame, or −1 when it is empty.
	Flash int
}

// LoadPIE10 loads the first 10 subjects of Deng Cai's CMU PIE 32×32 (five
// poses, 170 images each) with the within-subject index map.
//
// The file stores fea as 1700×1024 (rows are images, each column-major)
// in uint8 although its class is double; the returned Set has one 32×32
// image per row in row-major order, values 0–255, Labels the subject 0–9.
func LoadPIE10(r *Root) (set *Set, info []PIEInfo, err error) {
	x, subj, err := loadPIEMat(r, PIE10File, false)
	if err != nil {
		return nil, nil, err
	}
	index, err := withinSubject(PIE10File, subj, 170)
	if err != nil {
		return nil, nil, err
	}
	b, err := r.ReadFile(PIE10MapFile)
	if err != nil {
		return nil, nil, err
	}
	m, err := parsePIEMap(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", PIE10MapFile, err)
	}
	if len(m) != 170 {
		return nil, nil, fmt.Errorf("%s: %d rows, want 170", PIE10MapFile, len(m))
	}
	info = make([]PIEInfo, len(index))
	for i, k := range index {
		info[i] = m[k]
	}
	return &Set{Name: "pie10", X: x, Labels: subj, Width: pieSide, Height: pieSide}, info, nil
}

// loadPIEMat reads fea and gnd; byColumn says fea holds one image per
// column.
func loadPIEMat(r *Root, rel string, byColumn bool) (*mat.Dense, []int, error) {
	arrs, err := r.ReadMAT(rel)
	if err != nil {
		return nil, nil, err
	}
	fea, err := LookupMAT(arrs, "fea")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", rel, err)
	}
	gnd, err := LookupMAT(arrs, "gnd")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", rel, err)
	}
	f, err := fea.Dense()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", rel, err)
	}
	if byColumn {
		f = mat.DenseCopyOf(f.T())
	}
	n, d := f.Dims()
	if d != pieSide*pieSide {
		return nil, nil, fmt.Errorf("%s: images have %d pixels, want %d", rel, d, pieSide*pieSide)
	}
	if len(gnd.Data) != n {
		return nil, nil, fmt.Errorf("%s: gnd has %d labels for %d images", rel, len(gnd.Data), n)
	}
	if want, ok := knownRows[rel]; ok && n != want {
		return nil, nil, fmt.Errorf("%s: %d images, want %d (PROVENANCE.md)", rel, n, want)
	}
	// Each stored image is column-major: pixel (row y, column x) sits at
	// x*32 + y. Transpose it into the row-major order of Set.
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		src, dst := f.RawRowView(i), x.RawRowView(i)
		for y := 0; y < pieSide; y++ {
			for c := 0; c < pieSide; c++ {
				dst[y*pieSide+c] = src[c*pieSide+y]
			}
		}
	}
	labels := make([]int, n)
	for i, v := range gnd.Data {
		if v != float64(int(v)) || v < 1 {
			return nil, nil, fmt.Errorf("%s: gnd[%d] = %g, want a subject number ≥ 1", rel, i, v)
		}
		labels[i] = int(v) - 1
	}
	return x, labels, nil
}

// withinSubject numbers each image within its subject in file order and
// checks that every subject has per images.
func withinSubject(rel string, subj []int, per int) ([]int, error) {
	count := map[int]int{}
	index := make([]int, len(subj))
	for i, s := range subj {
		index[i] = count[s]
		count[s]++
	}
	for s, c := range count {
		if c != per {
			return nil, fmt.Errorf("%s: subject %d has %d images, want %d", rel, s+1, c, per)
		}
	}
	return index, nil
}

func parsePIEMap(b []byte) ([]PIEInfo, error) {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) < 1 {
		return nil, fmt.Errorf("empty file, want a header and 170 rows")
	}
	if len(recs[0]) != 5 || recs[0][0] != "within_subject_index_0based" {
		return nil, fmt.Errorf("unexpected header %q", recs[0])
	}
	out := make([]PIEInfo, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		idx, err := strconv.Atoi(rec[0])
		if err != nil || idx != i {
			return nil, fmt.Errorf("line %d: index %q, want %d", i+2, rec[0], i)
		}
		flash := -1
		if rec[4] != "" {
			if flash, err = strconv.Atoi(rec[4]); err != nil {
				return nil, fmt.Errorf("line %d: flash %q is not an integer", i+2, rec[4])
			}
		}
		out = append(out, PIEInfo{Index: idx, Pose: rec[1], Subset: rec[2], Condition: rec[3], Flash: flash})
	}
	return out, nil
}
