package datasets

import (
	"fmt"
	"path/filepath"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// knownDuplicates are the pairs of byte-identical files of the data root
// that PROVENANCE.md lists, by root-relative path, each pair sorted: the 9
// Yale faces pairs (noglasses == normal for subjects 02, 03, 06, 07, 09,
// 12, 14; glasses == normal for 08; sad == normal for 04, as the dataset's
// Readme explains) and Scene-15's 18 groups of byte-identical images (all
// pairs; one crosses classes, tallbuilding/insidecity). Any other two
// entries of one dataset with the same content are an error naming both:
// a file copied over another (with SHA256SUMS regenerated) would otherwise
// change results without anything naming the data.
var knownDuplicates = pairSet(
	"yalefaces/subject02.noglasses", "yalefaces/subject02.normal",
	"yalefaces/subject03.noglasses", "yalefaces/subject03.normal",
	"yalefaces/subject04.normal", "yalefaces/subject04.sad",
	"yalefaces/subject06.noglasses", "yalefaces/subject06.normal",
	"yalefaces/subject07.noglasses", "yalefaces/subject07.normal",
	"yalefaces/subject08.glasses", "yalefaces/subject08.normal",
	"yalefaces/subject09.noglasses", "yalefaces/subject09.normal",
	"yalefaces/subject12.noglasses", "yalefaces/subject12.normal",
	"yalefaces/subject14.noglasses", "yalefaces/subject14.normal",

	"scene15/data/test/livingRoom/image_0003.jpg", "scene15/data/train/livingroom/image_0028.jpg",
	"scene15/data/test/livingRoom/image_0004.jpg", "scene15/data/train/livingroom/image_0030.jpg",
	"scene15/data/test/livingRoom/image_0005.jpg", "scene15/data/train/livingroom/image_0034.jpg",
	"scene15/data/test/livingRoom/image_0027.jpg", "scene15/data/train/livingroom/image_0289.jpg",
	"scene15/data/test/livingRoom/image_0124.jpg", "scene15/data/test/livingRoom/image_0262.jpg",
	"scene15/data/test/livingRoom/image_0135.jpg", "scene15/data/test/livingRoom/image_0216.jpg",
	"scene15/data/test/livingRoom/image_0214.jpg", "scene15/data/train/livingroom/image_0261.jpg",
	"scene15/data/test/livingRoom/image_0215.jpg", "scene15/data/train/livingroom/image_0168.jpg",
	"scene15/data/test/livingRoom/image_0218.jpg", "scene15/data/test/livingRoom/image_0272.jpg",
	"scene15/data/test/livingRoom/image_0221.jpg", "scene15/data/test/livingRoom/image_0256.jpg",
	"scene15/data/test/livingRoom/image_0222.jpg", "scene15/data/train/livingroom/image_0258.jpg",
	"scene15/data/test/livingRoom/image_0251.jpg", "scene15/data/train/livingroom/image_0006.jpg",
	"scene15/data/test/livingRoom/image_0266.jpg", "scene15/data/test/livingRoom/image_0284.jpg",
	"scene15/data/test/livingRoom/image_0285.jpg", "scene15/data/train/livingroom/image_0267.jpg",
	"scene15/data/test/mountain/image_0316.jpg", "scene15/data/train/Mountain/image_0347.jpg",
	"scene15/data/test/tallbuilding/image_0300.jpg", "scene15/data/train/Insidecity/image_0305.jpg",
	"scene15/data/train/livingroom/image_0208.jpg", "scene15/data/train/livingroom/image_0211.jpg",
	"scene15/data/train/livingroom/image_0269.jpg", "scene15/data/train/livingroom/image_0286.jpg",
)

func pairSet(paths ...string) map[[2]string]bool {
	m := make(map[[2]string]bool, len(paths)/2)
	for i := 0; i+1 < len(paths); i += 2 {
		m[pairOf(paths[i], paths[i+1])] = true
	}
	return m
}

func pairOf(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// DuplicateError reports two entries of one dataset with the same content
// that PROVENANCE.md does not list as such.
type DuplicateError struct {
	// Where names the files' container: SHA256SUMS, or an archive.
	Where string
	// A and B are the two entries, A < B.
	A, B string
	// How says what is equal: "the same SHA-256", "the same pixels".
	How string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("datasets: %s: %s and %s have %s, and PROVENANCE.md lists no such pair: one was copied over the other (or the dataset is another version); get the files again as described in PROVENANCE.md",
		e.Where, e.A, e.B, e.How)
}

// duplicates returns the first pair (in sorted order) of entries whose
// keys are equal and that are not a known pair, or nil. entries and keys
// are parallel.
func duplicates[K comparable](where, how string, entries []string, keys []K) error {
	first := make(map[K][]string, len(entries))
	var bad []*DuplicateError
	for i, e := range entries {
		for _, o := range first[keys[i]] {
			if p := pairOf(o, e); !knownDuplicates[p] {
				bad = append(bad, &DuplicateError{Where: where, A: p[0], B: p[1], How: how})
			}
		}
		first[keys[i]] = append(first[keys[i]], e)
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(bad, func(i, j int) bool {
		if bad[i].A != bad[j].A {
			return bad[i].A < bad[j].A
		}
		return bad[i].B < bad[j].B
	})
	return bad[0]
}

// checkDistinct refuses two files of paths (root-relative) that SHA256SUMS
// gives the same checksum, unless PROVENANCE.md lists the pair. ReadFile
// verifies every file against its checksum, so equal checksums are equal
// contents, found without reading anything.
func (r *Root) checkDistinct(paths []string) error {
	keys := make([]string, len(paths))
	for i, p := range paths {
		keys[i], _ = r.Sum(p)
		if keys[i] == "" {
			keys[i] = "missing:" + p // ReadFile reports it
		}
	}
	return duplicates(filepath.Join(r.Dir, SumsFile), "the same SHA-256", paths, keys)
}

// distinctIn checks that vals are distinct integers in [lo, hi]; what
// opens each message ("datasets: USPS: digit").
func distinctIn(what string, vals []int, lo, hi int) error {
	seen := make(map[int]bool, len(vals))
	for _, v := range vals {
		if v < lo || v > hi {
			return fmt.Errorf("%s %d is not in %d..%d", what, v, lo, hi)
		}
		if seen[v] {
			return fmt.Errorf("%s %d listed twice", what, v)
		}
		seen[v] = true
	}
	return nil
}

// imageSet is the set of len(labels) w×h images whose pixels data holds
// row after row, labelled by labels.
func imageSet(name string, data []float64, labels []int, w, h int) *Set {
	return &Set{Name: name, X: mat.NewDense(len(labels), w*h, data), Labels: labels, Width: w, Height: h}
}
