package datasets

import (
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// YaleBDir is the root-relative folder of the cropped Extended Yale B faces
// (PROVENANCE.md, row "yaleb/CroppedYale/").
const YaleBDir = "yaleb/CroppedYale"

// YaleBWidth and YaleBHeight are the size of a cropped Extended Yale B face.
const (
	YaleBWidth  = 168
	YaleBHeight = 192
)

// yaleBSubsetMax holds the upper bounds, in degrees, of the light's angle
// from the camera axis for illumination subsets 1–4; larger angles are
// subset 5. Georghiades, Belhumeur & Kriegman (2001) give the subsets as
// integer ranges 0–12°, 13–25°, 26–50°, 51–77° and above 77°; the bounds sit
// half-way between, so no angle of the 64 lightings is near one.
var yaleBSubsetMax = [4]float64{12.5, 25.5, 50.5, 77.5}

// yaleBSubset returns the illumination subset, 1..5, of a light at angle
// degrees from the camera axis.
func yaleBSubset(angle float64) int {
	for i, m := range yaleBSubsetMax {
		if angle <= m {
			return i + 1
		}
	}
	return 5
}

// yaleBLightAngle returns the angle in degrees between the camera axis and a
// light at the given azimuth and elevation (degrees): the light's direction
// is (cos E·sin A, sin E, cos E·cos A) with the camera on the z axis, so the
// angle is arccos(cos A·cos E).
func yaleBLightAngle(azimuth, elevation float64) float64 {
	const rad = math.Pi / 180
	c := math.Cos(azimuth*rad) * math.Cos(elevation*rad)
	return math.Acos(math.Max(-1, math.Min(1, c))) / rad
}

// YaleBOptions selects cropped Extended Yale B faces for LoadYaleB.
type YaleBOptions struct {
	// Subsets are the illumination subsets to load, each in 1..5 and
	// listed once, e.g. {1} or {1, 2}. At least one is required: all five
	// at full size would be 2414 images of 32256 pixels (600 MB).
	Subsets []int
	// Subjects are the subject numbers to load (the NN of yaleBNN), each
	// listed once. Nil or empty loads every subject SHA256SUMS lists: 38
	// in the full data set, numbered 1–13 and 15–39 (there is no yaleB14).
	Subjects []int
	// Width and Height are the size the faces are resized to, e.g. 92 and
	// 112; both 0 keeps the stored size (168×192). Otherwise both must be
	// at least 1.
	Width, Height int
}

// YaleBImage describes one image LoadYaleB returned.
type YaleBImage struct {
	// Subject is the subject number, the NN of yaleBNN.
	Subject int
	// Azimuth and Elevation are the light's direction in degrees, as
	// written in the file name (A±aaa, E±ee).
	Azimuth, Elevation int
	// Angle is the light's angle from the camera axis in degrees,
	// arccos(cos Azimuth · cos Elevation).
	Angle float64
	// Subset is the illumination subset, 1..5, of Angle.
	Subset int
	// Path is the root-relative path of the file,
	// e.g. "yaleb/CroppedYale/yaleB01/yaleB01_P00A+000E+00.pgm".
	Path string
}

// yaleBName matches the base name of a cropped face with a point light:
// yaleBNN_P00A±aaaE±ee.pgm (P00 is the frontal pose, the only one in
// CroppedYale).
var yaleBName = regexp.MustCompile(`^yaleB([0-9]{2})_P00A([+-][0-9]{3})E([+-][0-9]{2})\.pgm$`)

// parseYaleBPath parses a root-relative path under YaleBDir. It reports
// ok = false, with no error, for files that are not faces under a point
// light: the ambient-only image (_Ambient.pgm), images the dataset marks as
// bad (.pgm.bad) and anything not ending in .pgm (the .info lists).
func parseYaleBPath(rel string) (img YaleBImage, ok bool, err error) {
	base := path.Base(rel)
	if !strings.HasSuffix(base, ".pgm") || strings.HasSuffix(base, "_Ambient.pgm") {
		return YaleBImage{}, false, nil
	}
	m := yaleBName.FindStringSubmatch(base)
	if m == nil {
		return YaleBImage{}, false, fmt.Errorf("%s is not named like a cropped Yale B face (yaleBNN/yaleBNN_P00A±aaaE±ee.pgm)", rel)
	}
	subj, _ := strconv.Atoi(m[1])
	if want := YaleBDir + "/yaleB" + m[1] + "/" + base; rel != want {
		return YaleBImage{}, false, fmt.Errorf("%s is not in its subject's folder (want %s)", rel, want)
	}
	// The pattern admits only signed decimal numbers of 2 or 3 digits.
	az, _ := strconv.Atoi(m[2])
	el, _ := strconv.Atoi(m[3])
	a := yaleBLightAngle(float64(az), float64(el))
	return YaleBImage{
		Subject:   subj,
		Azimuth:   az,
		Elevation: el,
		Angle:     a,
		Subset:    yaleBSubset(a),
		Path:      rel,
	}, true, nil
}

func (o YaleBOptions) validate() error {
	if len(o.Subsets) == 0 {
		return errors.New("datasets: Yale B: no illumination subsets selected; list them, e.g. subsets: [1] (light within 12° of the camera axis)")
	}
	if err := distinctIn("datasets: Yale B: subset", o.Subsets, 1, 5); err != nil {
		return err
	}
	subj := make(map[int]bool)
	for _, s := range o.Subjects {
		if s < 1 {
			return fmt.Errorf("datasets: Yale B: subject %d; subjects are numbered from 1 (yaleB01)", s)
		}
		if subj[s] {
			return fmt.Errorf("datasets: Yale B: subject %d listed twice", s)
		}
		subj[s] = true
	}
	if (o.Width == 0) != (o.Height == 0) || o.Width < 0 || o.Height < 0 {
		return fmt.Errorf("datasets: Yale B: resize to %d×%d; give both width and height (e.g. 92×112), or 0×0 to keep %d×%d",
			o.Width, o.Height, YaleBWidth, YaleBHeight)
	}
	return nil
}

// LoadYaleB reads the cropped Extended Yale B faces (YaleBDir) under the
// selected illumination subsets, verifying every file against SHA256SUMS.
//
// The files are found through Root.List, that is from SHA256SUMS, not by
// listing the directory. Files marked bad by the dataset's authors
// (yaleBNN_P00A…E….pgm.bad, 18 in the full data), the ambient-only images
// (_Ambient.pgm) and the .info lists are skipped; any other .pgm whose name
// does not parse is an error. The light's angle from the camera axis,
// arccos(cos A · cos E) for azimuth A and elevation E read from the name,
// decides the subset (Georghiades et al. 2001): 1 up to 12°, 2 up to 25°,
// 3 up to 50°, 4 up to 77°, 5 beyond. Subset 1 is the 7 lightings A+000E+00,
// A±005E±10 and A±010E+00.
//
// Images come ordered by subject number, then by file name. The Set is
// named "yaleb", has one image a row, row-major, with values
// sample/maxval in [0, 1] (see DecodePGM) and Labels equal to the subject
// number; Width and Height are the stored size or, when o.Width and
// o.Height are set, the size after Gray.Resize (Catmull-Rom, antialiased).
// The YaleBImage slice describes the rows in the same order.
//
// All selected images must have the same stored size. A subject with no
// images listed in SHA256SUMS, an empty selection, a missing or corrupt file
// and a malformed PGM are errors naming the file and the fix.
//
// Zheng & Lai's faces, light within 12° of the camera axis, at 92×112:
//
//	r, err := datasets.OpenRoot("") // the --data flag's value, or RUNEXP_DATA
//	...
//	set, imgs, err := datasets.LoadYaleB(r, datasets.YaleBOptions{Subsets: []int{1}, Width: 92, Height: 112})
//
// (ExampleRoot_ReadFile shows a data root at work on a fixture; the real
// faces are not in the repository.)
func LoadYaleB(r *Root, o YaleBOptions) (*Set, []YaleBImage, error) {
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	if r == nil {
		return nil, nil, fmt.Errorf("datasets: reading %s: no data root; pass --data DIR or set %s", YaleBDir, EnvDataRoot)
	}
	imgs, err := selectYaleB(r, o)
	if err != nil {
		return nil, nil, err
	}
	selected := make([]string, len(imgs))
	for i, img := range imgs {
		selected[i] = img.Path
	}
	if err := r.checkDistinct(selected); err != nil {
		return nil, nil, err
	}
	set, err := readYaleB(r, imgs, o)
	return set, imgs, err
}

// selectYaleB returns the images of the selected subsets and subjects
// that the root's SHA256SUMS lists, by subject and file name.
func selectYaleB(r *Root, o YaleBOptions) ([]YaleBImage, error) {
	sumsPath := filepath.Join(r.Dir, SumsFile)
	listed := r.List(YaleBDir)
	if len(listed) == 0 {
		return nil, fmt.Errorf("datasets: %s lists no files under ./%s/; get the cropped Extended Yale B faces as described in PROVENANCE.md into %s and add their checksums",
			sumsPath, YaleBDir, filepath.Join(r.Dir, filepath.FromSlash(YaleBDir)))
	}
	wantSubset := make(map[int]bool)
	for _, s := range o.Subsets {
		wantSubset[s] = true
	}
	wantSubject := make(map[int]bool)
	for _, s := range o.Subjects {
		wantSubject[s] = true
	}
	present := make(map[int]bool)
	var imgs []YaleBImage
	for _, rel := range listed {
		img, ok, err := parseYaleBPath(rel)
		if err != nil {
			return nil, fmt.Errorf("datasets: %s: %v; remove or rename the line in %s", sumsPath, err, SumsFile)
		}
		if !ok {
			continue
		}
		present[img.Subject] = true
		if (len(wantSubject) == 0 || wantSubject[img.Subject]) && wantSubset[img.Subset] {
			imgs = append(imgs, img)
		}
	}
	for _, s := range o.Subjects {
		if !present[s] {
			return nil, fmt.Errorf("datasets: Yale B subject %d: %s lists no images under ./%s/yaleB%02d/; subjects are yaleB01–yaleB13 and yaleB15–yaleB39 (PROVENANCE.md)",
				s, sumsPath, YaleBDir, s)
		}
	}
	if len(imgs) == 0 {
		return nil, fmt.Errorf("datasets: Yale B: no images in subsets %v of the selected subjects (%s)", o.Subsets, sumsPath)
	}
	sort.Slice(imgs, func(i, j int) bool {
		if imgs[i].Subject != imgs[j].Subject {
			return imgs[i].Subject < imgs[j].Subject
		}
		return path.Base(imgs[i].Path) < path.Base(imgs[j].Path)
	})
	return imgs, nil
}

// readYaleB reads and decodes the images, all of one size, resized when
// o asks, into a set labelled by subject.
func readYaleB(r *Root, imgs []YaleBImage, o YaleBOptions) (*Set, error) {
	var (
		data           []float64
		labels         = make([]int, len(imgs))
		sw, sh, dw, dh int
		rs             *resizer
		first          string
	)
	for k, img := range imgs {
		b, err := r.ReadFile(img.Path)
		if err != nil {
			return nil, err
		}
		full := filepath.Join(r.Dir, filepath.FromSlash(img.Path))
		g, err := DecodePGM(full, b)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			sw, sh, dw, dh, first = g.Width, g.Height, g.Width, g.Height, full
			if o.Width > 0 {
				dw, dh = o.Width, o.Height
				rs = newResizer(sw, sh, dw, dh)
			}
			data = make([]float64, 0, len(imgs)*dw*dh)
		} else if g.Width != sw || g.Height != sh {
			return nil, fmt.Errorf("datasets: %s is %d×%d but %s is %d×%d; cropped Yale B faces are all %d×%d: get the file again as described in PROVENANCE.md",
				full, g.Width, g.Height, first, sw, sh, YaleBWidth, YaleBHeight)
		}
		if rs != nil {
			g = rs.resize(g)
		}
		data = append(data, g.Pix...)
		labels[k] = img.Subject
	}
	return imageSet("yaleb", data, labels, dw, dh), nil
}
