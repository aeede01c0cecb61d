package datasets

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"regexp"
	"sort"
	"strconv"
)

// YaleBOrigFile is the root-relative path of the original Yale B frontal
// faces archive, 10 subjects (PROVENANCE.md, row
// "yaleb/yaleBfaces_orig10_frontal/yaleBfaces.zip").
const YaleBOrigFile = "yaleb/yaleBfaces_orig10_frontal/yaleBfaces.zip"

// The original Yale B archive's size: 10 subjects, 64 lightings each, in
// 50×50 8-bit grey PNGs.
const (
	YaleBOrigSubjects = 10
	YaleBOrigWidth    = 50
	YaleBOrigHeight   = 50
)

// yaleBOrigPerSubset is the number of lightings per subject in each
// illumination subset 1..5 (the archive's subset0..subset4): 7, 12, 12,
// 14, 19, Georghiades et al.'s split of the 64 lightings, as in
// CroppedYale (yaleBSubset).
var yaleBOrigPerSubset = [6]int{1: 7, 2: 12, 3: 12, 4: 14, 5: 19}

// maxYaleBOrigEntry bounds an image entry of the archive: a 50×50 8-bit
// grey PNG, stored uncompressed, is 2500 bytes of samples plus a filter
// byte a row and a few hundred bytes of chunks; 16 KiB is far more than
// any writer produces.
const maxYaleBOrigEntry = 16 << 10

// yaleBOrigName matches an image inside the archive:
// yaleBfaces/subsetK/personNN_MM.png, K = 0..4, NN the subject, MM the
// lighting (1..64, numbered through the subsets).
var yaleBOrigName = regexp.MustCompile(`^yaleBfaces/subset([0-4])/person([0-9]{2})_([0-9]{2})\.png$`)

// YaleBOrigOptions selects original Yale B faces for LoadYaleBOrig.
type YaleBOrigOptions struct {
	// Subsets are the illumination subsets to load, each in 1..5 and
	// listed once; subset k is the archive's folder subset(k−1), so the
	// numbering is CroppedYale's (YaleBOptions.Subsets).
	Subsets []int
	// Width and Height are the size the faces are resized to; both 0
	// keeps the stored 50×50. Otherwise both must be at least 1.
	Width, Height int
}

func (o YaleBOrigOptions) validate() error {
	if len(o.Subsets) == 0 {
		return errors.New("datasets: original Yale B: no illumination subsets selected; list them, e.g. subsets: [1, 2, 3, 4, 5]")
	}
	if err := distinctIn("datasets: original Yale B: subset", o.Subsets, 1, 5); err != nil {
		return err
	}
	if (o.Width == 0) != (o.Height == 0) || o.Width < 0 || o.Height < 0 {
		return fmt.Errorf("datasets: original Yale B: resize to %d×%d; give both width and height (e.g. 30×40), or 0×0 to keep %d×%d",
			o.Width, o.Height, YaleBOrigWidth, YaleBOrigHeight)
	}
	return nil
}

// LoadYaleBOrig reads the original Yale B frontal faces of YaleBOrigFile,
// verified against SHA256SUMS: a zip of 8-bit grey PNGs
// yaleBfaces/subsetK/personNN_MM.png, 50×50, of 10 subjects under the 64
// lightings, split by the archive into illumination subsets 0–4 of 7, 12,
// 12, 14 and 19 lightings a subject (Georghiades et al.'s subsets 1–5,
// the numbering o.Subsets uses). Folder entries are skipped; any other
// entry is an error.
//
// The Set is named "yaleb-orig", has one image a row, row-major, with
// values sample/255 in [0, 1] and Labels equal to the subject number
// (1..10), ordered by subject then lighting number; Width and Height are
// 50×50 or, when o sets them, the size after Gray.Resize (Catmull-Rom, as
// LoadYaleB). A missing or corrupt archive, an image of another size or
// type, a subject without every lighting of a subset, a lighting in two
// folders and two images with the same contents are errors naming the
// entry and the fix.
func LoadYaleBOrig(r *Root, o YaleBOrigOptions) (*Set, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	b, full, err := r.readFull(YaleBOrigFile)
	if err != nil {
		return nil, err
	}
	return decodeYaleBOrig(full, b, o)
}

// yaleBOrigEntry is one image of the archive.
type yaleBOrigEntry struct {
	subset, subject, lighting int
	f                         *zip.File
}

// decodeYaleBOrig decodes the archive b of LoadYaleBOrig; full names it
// in errors.
func decodeYaleBOrig(full string, b []byte, o YaleBOrigOptions) (*Set, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable zip archive: %v; get it again as described in PROVENANCE.md", full, err)
	}
	all, err := yaleBOrigEntries(full, zr)
	if err != nil {
		return nil, err
	}
	want := map[int]bool{}
	for _, s := range o.Subsets {
		want[s] = true
	}
	w, h := YaleBOrigWidth, YaleBOrigHeight
	var rs *resizer
	if o.Width > 0 {
		w, h = o.Width, o.Height
		rs = newResizer(YaleBOrigWidth, YaleBOrigHeight, w, h)
	}
	var (
		data   []float64
		labels []int
		names  []string
		sums   [][sha256.Size]byte
	)
	// Every image is decoded, selected or not, so a damaged entry or a
	// duplicate anywhere in the archive is found whatever the selection.
	for _, e := range all {
		pb, err := readBounded(full, e.f, maxYaleBOrigEntry, "a 50×50 grey PNG")
		if err != nil {
			return nil, err
		}
		names, sums = append(names, e.f.Name), append(sums, sha256.Sum256(pb))
		name := full + ":" + e.f.Name
		g, err := decodeGrayPNG(name, pb)
		if err != nil {
			return nil, err
		}
		if g.Width != YaleBOrigWidth || g.Height != YaleBOrigHeight {
			return nil, fmt.Errorf("datasets: %s is %d×%d, want %d×%d; get the archive again as described in PROVENANCE.md",
				name, g.Width, g.Height, YaleBOrigWidth, YaleBOrigHeight)
		}
		if !want[e.subset] {
			continue
		}
		if rs != nil {
			g = rs.resize(g)
		}
		data = append(data, g.Pix...)
		labels = append(labels, e.subject)
	}
	if err := duplicates(full, "the same contents", names, sums); err != nil {
		return nil, err
	}
	return imageSet("yaleb-orig", data, labels, w, h), nil
}

// yaleBOrigEntries returns the archive's images by subject and lighting,
// checking that each subject has every lighting of every subset once and
// that a lighting number belongs to one subset.
func yaleBOrigEntries(full string, zr *zip.Reader) ([]yaleBOrigEntry, error) {
	var es []yaleBOrigEntry
	count := map[[2]int]int{}   // (subject, subset) → images
	seen := map[[2]int]string{} // (subject, lighting) → entry
	subsetOf := map[int]int{}   // lighting → subset
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		m := yaleBOrigName.FindStringSubmatch(f.Name)
		if m == nil {
			return nil, fmt.Errorf("datasets: %s: entry %s is not named yaleBfaces/subsetK/personNN_MM.png; get the archive again as described in PROVENANCE.md", full, f.Name)
		}
		k, _ := strconv.Atoi(m[1])
		s, _ := strconv.Atoi(m[2])
		l, _ := strconv.Atoi(m[3])
		subset := k + 1
		if s < 1 || s > YaleBOrigSubjects || l < 1 || l > 64 {
			return nil, fmt.Errorf("datasets: %s: entry %s: subject %d or lighting %d outside 1..%d, 1..64", full, f.Name, s, l, YaleBOrigSubjects)
		}
		if prev, dup := seen[[2]int{s, l}]; dup {
			return nil, fmt.Errorf("datasets: %s: entries %s and %s are both subject %d under lighting %d", full, prev, f.Name, s, l)
		}
		seen[[2]int{s, l}] = f.Name
		if p, ok := subsetOf[l]; ok && p != subset {
			return nil, fmt.Errorf("datasets: %s: lighting %d is in subset%d for one subject and subset%d for another (entry %s)", full, l, p-1, subset-1, f.Name)
		}
		subsetOf[l] = subset
		count[[2]int{s, subset}]++
		es = append(es, yaleBOrigEntry{subset, s, l, f})
	}
	for s := 1; s <= YaleBOrigSubjects; s++ {
		for k := 1; k <= 5; k++ {
			if n := count[[2]int{s, k}]; n != yaleBOrigPerSubset[k] {
				return nil, fmt.Errorf("datasets: %s: subject %02d has %d images in subset%d, want %d; get the archive again as described in PROVENANCE.md",
					full, s, n, k-1, yaleBOrigPerSubset[k])
			}
		}
	}
	sort.Slice(es, func(a, b int) bool {
		if es[a].subject != es[b].subject {
			return es[a].subject < es[b].subject
		}
		return es[a].lighting < es[b].lighting
	})
	return es, nil
}

// readBounded reads an entry of an archive to its end, which checks its
// CRC-32 and declared size, but never more than max bytes (what holds, a
// phrase for errors).
func readBounded(full string, f *zip.File, max int, what string) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, fmt.Errorf("datasets: %s: entry %s declares %d bytes, more than %s can hold (%d); get the archive again as described in PROVENANCE.md",
			full, f.Name, f.UncompressedSize64, what, max)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: entry %s: %v", full, f.Name, err)
	}
	b, err := io.ReadAll(io.LimitReader(rc, int64(max)+1))
	rc.Close()
	if err == nil && len(b) > max {
		err = fmt.Errorf("inflates to more than the %d bytes %s can hold", max, what)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: entry %s: %v; get the archive again as described in PROVENANCE.md", full, f.Name, err)
	}
	return b, nil
}

// decodeGrayPNG decodes an 8-bit grey PNG into a Gray with values
// sample/255; any other colour model is an error, since converting it
// would be a choice the data's provenance does not make.
func decodeGrayPNG(name string, b []byte) (*Gray, error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable PNG: %v", name, err)
	}
	g, ok := img.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("datasets: %s: a PNG of colour model %T, want 8-bit grey (image.Gray)", name, img)
	}
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := &Gray{Width: w, Height: h, Pix: make([]float64, w*h)}
	for y := 0; y < h; y++ {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x, v := range row {
			out.Pix[y*w+x] = float64(v) / 255
		}
	}
	return out, nil
}
