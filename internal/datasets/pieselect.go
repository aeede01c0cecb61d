package datasets

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// PIE10Selection chooses images of the 10-subject CMU PIE file (Huang,
// Tian & De la Torre's data) and how to label them.
type PIE10Selection struct {
	// Subset is "expression" (the expression images, indices 0–14 of
	// each pose) or "poses" (5 poses × 21 flashes with the room lights
	// off, indices 15–119).
	Subset string
	// Labels is "expression" (the map's condition), "pose" (the camera)
	// or "subject" (subject01–subject10).
	Labels string
	// Subjects keeps only these subjects (0–9); empty keeps all.
	Subjects []int
}

// pieSubsets maps the Subset option to the index map's subset_inferred.
var pieSubsets = map[string]string{"expression": "expression", "poses": "illum_roomlights_off"}

// SelectPIE10 returns the rows of LoadPIE10's set that the selection keeps,
// in file order, scaled from 0–255 to [0, 1] and labelled 0, 1, … in the
// order the label names first appear. It is an error when no image is
// kept or the selection names an unknown subset or labelling.
func SelectPIE10(all *Set, info []PIEInfo, o PIE10Selection) (*Set, error) {
	if _, ok := pieSubsets[o.Subset]; !ok {
		return nil, fmt.Errorf("CMU PIE: unknown subset %q (want expression or poses)", o.Subset)
	}
	if o.Labels != "expression" && o.Labels != "pose" && o.Labels != "subject" {
		return nil, fmt.Errorf("CMU PIE: unknown labels %q (want expression, pose or subject)", o.Labels)
	}
	n, d := all.X.Dims()
	if len(info) != n || len(all.Labels) != n {
		return nil, fmt.Errorf("CMU PIE: %d images, %d index entries and %d labels", n, len(info), len(all.Labels))
	}
	var rows []int
	for i, in := range info {
		if in.Subset != pieSubsets[o.Subset] {
			continue
		}
		if len(o.Subjects) > 0 && !slices.Contains(o.Subjects, all.Labels[i]) {
			continue
		}
		rows = append(rows, i)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("CMU PIE: no images in subset %s of subjects %v", o.Subset, o.Subjects)
	}
	x := mat.NewDense(len(rows), d, nil)
	labels := make([]int, len(rows))
	var names []string
	index := map[string]int{}
	for k, i := range rows {
		src := all.X.RawRowView(i)
		dst := x.RawRowView(k)
		for j, v := range src {
			dst[j] = v / 255
		}
		var name string
		switch o.Labels {
		case "expression":
			name = info[i].Condition
		case "pose":
			name = info[i].Pose
		case "subject":
			name = fmt.Sprintf("subject%02d", all.Labels[i]+1)
		}
		l, ok := index[name]
		if !ok {
			l = len(names)
			index[name] = l
			names = append(names, name)
		}
		labels[k] = l
	}
	return &Set{Name: "pie10-" + o.Subset, X: x, Labels: labels, LabelNames: names, Width: all.Width, Height: all.Height}, nil
}
