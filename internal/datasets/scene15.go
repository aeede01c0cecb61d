package datasets

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/par"
)

// Scene15Dir is the root-relative folder of the Scene-15 images
// (PROVENANCE.md, row "scene15/data/").
const Scene15Dir = "scene15/data"

// Scene15Classes are the 15 categories of Lazebnik, Schmid & Ponce (2006)
// under the folder names of our copy, lower-cased: the train folders spell
// some differently from the test folders (Coast/coast, livingroom/
// livingRoom, OpenCountry/opencountry), and several drop the original
// prefixes (coast = MITcoast, suburb = CALsuburb, office = PARoffice, …).
// Labels are indices into this list.
var Scene15Classes = []string{
	"bedroom", "coast", "forest", "highway", "industrial", "insidecity", "kitchen", "livingroom",
	"mountain", "office", "opencountry", "store", "street", "suburb", "tallbuilding",
}

// Scene15Image describes one image ListScene15 found.
type Scene15Image struct {
	// Path is root-relative, e.g. "scene15/data/train/Coast/image_0001.jpg".
	Path string
	// Class is the index into Scene15Classes.
	Class int
	// Part is the folder it came from: "train" or "test".
	Part string
}

// ListScene15 returns every Scene-15 image SHA256SUMS lists under
// Scene15Dir, ordered by class, then part (test before train), then file
// name. Paths must be Scene15Dir/{train,test}/<folder>/<name>.jpg with a
// folder that lower-cases to one of Scene15Classes; anything else, or a
// class without images, is an error naming SHA256SUMS.
func ListScene15(r *Root) ([]Scene15Image, error) {
	if r == nil {
		return nil, fmt.Errorf("datasets: reading %s: no data root; pass --data DIR or set %s", Scene15Dir, EnvDataRoot)
	}
	sums := filepath.Join(r.Dir, SumsFile)
	listed := r.List(Scene15Dir)
	if len(listed) == 0 {
		return nil, fmt.Errorf("datasets: %s lists no files under ./%s/; get Scene-15 as described in PROVENANCE.md into %s and add their checksums",
			sums, Scene15Dir, filepath.Join(r.Dir, filepath.FromSlash(Scene15Dir)))
	}
	index := map[string]int{}
	for i, c := range Scene15Classes {
		index[c] = i
	}
	var out []Scene15Image
	count := make([]int, len(Scene15Classes))
	for _, p := range listed {
		rest := strings.TrimPrefix(p, Scene15Dir+"/")
		parts := strings.Split(rest, "/")
		if len(parts) != 3 || (parts[0] != "train" && parts[0] != "test") || path.Ext(parts[2]) != ".jpg" {
			return nil, fmt.Errorf("datasets: %s: %s is not %s/{train,test}/<class>/<name>.jpg; remove the line or get the data again as described in PROVENANCE.md", sums, p, Scene15Dir)
		}
		c, ok := index[strings.ToLower(parts[1])]
		if !ok {
			return nil, fmt.Errorf("datasets: %s: %s: folder %q is none of the 15 Scene-15 classes (%s)", sums, p, parts[1], strings.Join(Scene15Classes, ", "))
		}
		out = append(out, Scene15Image{Path: p, Class: c, Part: parts[0]})
		count[c]++
	}
	for c, n := range count {
		if n == 0 {
			return nil, fmt.Errorf("datasets: %s lists no images of class %s under ./%s/", sums, Scene15Classes[c], Scene15Dir)
		}
	}
	if err := r.checkDistinct(listed); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Class != b.Class {
			return a.Class < b.Class
		}
		if a.Part != b.Part {
			return a.Part < b.Part
		}
		return path.Base(a.Path) < path.Base(b.Path)
	})
	return out, nil
}

// maxJPEGPixels bounds a JPEG's declared size: Scene-15's images are
// 200×200 here and at most about 300×250 in the original set, so 4 Mpx
// (2048×2048) is far beyond any.
const maxJPEGPixels = 1 << 22

// DecodeJPEGGray decodes a JPEG (baseline or progressive, image/jpeg) into
// a grey image: the mean of R, G and B in [0, 1] (LMgist.m's mean(img, 3)).
// name identifies the file in errors.
func DecodeJPEGGray(name string, b []byte) (*Gray, error) {
	// The header's size is checked before decoding: it may claim
	// 65535×65535 pixels, which Decode would allocate.
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable JPEG: %v; get the file again as described in PROVENANCE.md", name, err)
	}
	if cfg.Width*cfg.Height > maxJPEGPixels {
		return nil, fmt.Errorf("datasets: %s: the JPEG header declares %d×%d pixels, more than the %d a data image may have (Scene-15's are 200×200); get the file again as described in PROVENANCE.md",
			name, cfg.Width, cfg.Height, maxJPEGPixels)
	}
	im, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable JPEG: %v; get the file again as described in PROVENANCE.md", name, err)
	}
	bd := im.Bounds()
	g := &Gray{Width: bd.Dx(), Height: bd.Dy(), Pix: make([]float64, bd.Dx()*bd.Dy())}
	switch m := im.(type) {
	case *image.Gray:
		for y := 0; y < g.Height; y++ {
			for x := 0; x < g.Width; x++ {
				g.Pix[y*g.Width+x] = float64(m.GrayAt(bd.Min.X+x, bd.Min.Y+y).Y) / 255
			}
		}
	default:
		for y := 0; y < g.Height; y++ {
			for x := 0; x < g.Width; x++ {
				r, gg, bb, _ := im.At(bd.Min.X+x, bd.Min.Y+y).RGBA()
				g.Pix[y*g.Width+x] = float64(r+gg+bb) / (3 * 0xffff)
			}
		}
	}
	return g, nil
}

// LoadScene15GIST reads every Scene-15 image (ListScene15), verified
// against SHA256SUMS, and returns their GIST descriptors (GISTOptions o)
// as a Set named "scene15": one descriptor a row, Labels the class indices
// into Scene15Classes (also its LabelNames), in ListScene15's order, which the returned slice
// describes. Images are processed by workers goroutines (≤ 0: par.Run,
// which in a pool's task borrows its idle cores and elsewhere runs
// GOMAXPROCS goroutines); the result does not depend on their number.
func LoadScene15GIST(r *Root, o GISTOptions, workers int) (*Set, []Scene15Image, error) {
	imgs, err := ListScene15(r)
	if err != nil {
		return nil, nil, err
	}
	g, err := NewGIST(o)
	if err != nil {
		return nil, nil, err
	}
	x := mat.NewDense(len(imgs), g.Len(), nil)
	errs := make([]error, len(imgs))
	one := func(i int) {
		b, err := r.ReadFile(imgs[i].Path)
		if err != nil {
			errs[i] = err
			return
		}
		full := filepath.Join(r.Dir, filepath.FromSlash(imgs[i].Path))
		gray, err := DecodeJPEGGray(full, b)
		if err != nil {
			errs[i] = err
			return
		}
		d, err := g.Descriptor(gray)
		if err != nil {
			errs[i] = fmt.Errorf("datasets: %s: %v", full, err)
			return
		}
		x.SetRow(i, d)
	}
	if workers <= 0 {
		// In a pool's task (a config's Start) the images go to the
		// idle cores and their CPU time to the task (package par).
		par.Run(len(imgs), func(next func() (int, bool)) {
			for i, ok := next(); ok; i, ok = next() {
				one(i)
			}
		})
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					one(i)
				}
			}()
		}
		for i := range imgs {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	labels := make([]int, len(imgs))
	for i, im := range imgs {
		labels[i] = im.Class
	}
	return &Set{Name: "scene15", X: x, Labels: labels, LabelNames: append([]string(nil), Scene15Classes...)}, imgs, nil
}
