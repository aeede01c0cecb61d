package datasets

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/color"
	"image/gif"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// The original Yale Face Database (Belhumeur et al. 1997; not Yale B): 15
// subjects × 11 conditions, GIF87a 320×243 grey images named
// yalefaces/subjectNN.<condition> (the .gif suffix is dropped in the data
// root, see PROVENANCE.md).
const (
	YaleFacesDir    = "yalefaces"
	YaleFacesWidth  = 320
	YaleFacesHeight = 243
	yaleFacesSubj   = 15
)

// YaleFacesConditions lists the 11 conditions in the order used for group
// numbers.
var YaleFacesConditions = []string{"centerlight", "glasses", "happy", "leftlight", "noglasses", "normal", "rightlight", "sad", "sleepy", "surprised", "wink"}

// YaleFace describes one loaded image.
type YaleFace struct {
	// Path is relative to the data root.
	Path string
	// Subject is 1–15.
	Subject int
	// Condition is one of YaleFacesConditions; Group its index there.
	Condition string
	Group     int
	// DuplicateOf is the Path of an earlier image with identical pixels,
	// or "" (PROVENANCE.md lists 9 such pairs).
	DuplicateOf string
}

// YaleFacesOptions selects and resizes the images.
type YaleFacesOptions struct {
	// Width and Height resize the cropped 320×242 images (Gray.Resize,
	// antialiased Catmull-Rom); 0 keeps them.
	Width, Height int
	// Dedupe drops an image whose pixels equal another's, keeping the
	// "normal" one (every duplicate pair in the data includes a normal
	// image: noglasses, glasses or, per the Readme, sad stored as normal),
	// so no test image has a copy in the training set.
	Dedupe bool
}

// DecodeYaleFace decodes one Yale face GIF into grey values in [0, 1]
// (palette entry converted by the standard luma weights of color.GrayModel,
// /255) and crops row 0: in 98 of the files its first ~124 pixels are a
// constant grey 130 (PROVENANCE.md), an artefact, not face. The result is
// 320×242. name is used in errors.
func DecodeYaleFace(name string, b []byte) (*Gray, error) {
	// Check the declared size before decoding: a header may claim
	// 65535×65535 pixels, which Decode would allocate.
	cfg, err := gif.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable GIF (%v); get the file again as described in PROVENANCE.md", name, err)
	}
	if cfg.Width != YaleFacesWidth || cfg.Height != YaleFacesHeight {
		return nil, fmt.Errorf("datasets: %s is %d×%d, Yale faces are %d×%d; get the file again as described in PROVENANCE.md",
			name, cfg.Width, cfg.Height, YaleFacesWidth, YaleFacesHeight)
	}
	img, err := gif.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable GIF (%v); get the file again as described in PROVENANCE.md", name, err)
	}
	r := img.Bounds()
	if r.Dx() != YaleFacesWidth || r.Dy() != YaleFacesHeight {
		return nil, fmt.Errorf("datasets: %s is %d×%d, Yale faces are %d×%d; get the file again as described in PROVENANCE.md",
			name, r.Dx(), r.Dy(), YaleFacesWidth, YaleFacesHeight)
	}
	g := &Gray{Width: r.Dx(), Height: r.Dy() - 1, Pix: make([]float64, r.Dx()*(r.Dy()-1))}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			v := color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y
			g.Pix[(y-r.Min.Y-1)*g.Width+x-r.Min.X] = float64(v) / 255
		}
	}
	return g, nil
}

// parseYaleFacePath reads subjectNN.<condition>; ok is false for other
// files (Readme.txt).
func parseYaleFacePath(rel string) (YaleFace, bool, error) {
	base := filepath.Base(rel)
	if !strings.HasPrefix(base, "subject") {
		return YaleFace{}, false, nil
	}
	num, cond, found := strings.Cut(strings.TrimPrefix(base, "subject"), ".")
	s, err := strconv.Atoi(num)
	if !found || err != nil || s < 1 || s > yaleFacesSubj {
		return YaleFace{}, false, fmt.Errorf("%s: not subjectNN.<condition> with NN in 01–15", rel)
	}
	g := slices.Index(YaleFacesConditions, cond)
	if g < 0 {
		return YaleFace{}, false, fmt.Errorf("%s: unknown condition %q (want one of %s)", rel, cond, strings.Join(YaleFacesConditions, ", "))
	}
	return YaleFace{Path: rel, Subject: s, Condition: cond, Group: g}, true, nil
}

// LoadYaleFaces loads every Yale face listed in the data root's checksum
// file (all 165 are required), in subject then condition order. Set.X rows
// are the images (row-major, [0, 1]), Labels the subject 0–14; the
// YaleFace slice gives each row's condition group.
func LoadYaleFaces(r *Root, o YaleFacesOptions) (*Set, []YaleFace, error) {
	if (o.Width == 0) != (o.Height == 0) || o.Width < 0 || o.Height < 0 {
		return nil, nil, fmt.Errorf("datasets: Yale faces: give both width and height ≥ 1 to resize, or neither")
	}
	if r == nil {
		return nil, nil, fmt.Errorf("datasets: reading %s: no data root; pass --data DIR or set %s", YaleFacesDir, EnvDataRoot)
	}
	var faces []YaleFace
	for _, rel := range r.List(YaleFacesDir) {
		f, ok, err := parseYaleFacePath(rel)
		if err != nil {
			return nil, nil, fmt.Errorf("datasets: %s: %v", filepath.Join(r.Dir, SumsFile), err)
		}
		if ok {
			faces = append(faces, f)
		}
	}
	if len(faces) != yaleFacesSubj*len(YaleFacesConditions) {
		return nil, nil, fmt.Errorf("datasets: %s lists %d Yale face images under ./%s/, want %d (15 subjects × 11 conditions); get them as described in PROVENANCE.md",
			filepath.Join(r.Dir, SumsFile), len(faces), YaleFacesDir, yaleFacesSubj*len(YaleFacesConditions))
	}
	slices.SortFunc(faces, func(a, b YaleFace) int {
		if a.Subject != b.Subject {
			return a.Subject - b.Subject
		}
		return a.Group - b.Group
	})
	paths := make([]string, len(faces))
	for i, f := range faces {
		paths[i] = f.Path
	}
	if err := r.checkDistinct(paths); err != nil {
		return nil, nil, err
	}
	imgs, keys, err := readYaleFaces(r, faces)
	if err != nil {
		return nil, nil, err
	}
	// Files that differ but decode to the same pixels (one re-encoded
	// over another) are caught here.
	if err := duplicates(filepath.Join(r.Dir, YaleFacesDir), "the same pixels", paths, keys); err != nil {
		return nil, nil, err
	}
	set, kept := yaleFacesSet(faces, imgs, keys, o)
	return set, kept, nil
}

// readYaleFaces decodes the faces, with the SHA-256 of each one's pixels
// (as bytes) to find the files that decode alike.
func readYaleFaces(r *Root, faces []YaleFace) ([]*Gray, [][32]byte, error) {
	imgs := make([]*Gray, len(faces))
	keys := make([][32]byte, len(faces))
	for i, f := range faces {
		b, err := r.ReadFile(f.Path)
		if err != nil {
			return nil, nil, err
		}
		g, err := DecodeYaleFace(filepath.Join(r.Dir, filepath.FromSlash(f.Path)), b)
		if err != nil {
			return nil, nil, err
		}
		imgs[i] = g
		h := sha256.New()
		for _, v := range g.Pix {
			h.Write([]byte{byte(math.Round(v * 255))})
		}
		copy(keys[i][:], h.Sum(nil))
	}
	return imgs, keys, nil
}

// yaleFacesSet marks the faces that decode like another as its duplicate
// and returns the set of the faces kept (all, unless o.Dedupe), resized
// when o asks.
func yaleFacesSet(faces []YaleFace, imgs []*Gray, keys [][32]byte, o YaleFacesOptions) (*Set, []YaleFace) {
	dw, dh := YaleFacesWidth, YaleFacesHeight-1
	var rs *resizer
	if o.Width > 0 {
		dw, dh = o.Width, o.Height
		rs = newResizer(YaleFacesWidth, YaleFacesHeight-1, dw, dh)
	}
	// A duplicate points at the normal image of its pair when there is
	// one, else at the earlier image.
	owner := map[[32]byte]string{}
	for pass := 0; pass < 2; pass++ {
		for i, f := range faces {
			if _, ok := owner[keys[i]]; !ok && (pass == 1 || f.Condition == "normal") {
				owner[keys[i]] = f.Path
			}
		}
	}
	var data []float64
	var labels []int
	var kept []YaleFace
	for i, f := range faces {
		if first := owner[keys[i]]; first != f.Path {
			f.DuplicateOf = first
			if o.Dedupe {
				continue
			}
		}
		g := imgs[i]
		if rs != nil {
			g = rs.resize(g)
		}
		data = append(data, g.Pix...)
		labels = append(labels, f.Subject-1)
		kept = append(kept, f)
	}
	return &Set{Name: "yalefaces", X: mat.NewDense(len(kept), dw*dh, data), Labels: labels, Width: dw, Height: dh}, kept
}
