package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/safefs"
)

// Root-relative paths of the ESL USPS files (PROVENANCE.md, row "usps/").
const (
	USPSTrainFile = "usps/zip.train.gz"
	USPSTestFile  = "usps/zip.test.gz"
)

// USPSSide is the width and height of a USPS digit image.
const USPSSide = 16

// uspsPixels is the number of grey levels on a USPS line after the label.
const uspsPixels = USPSSide * USPSSide

// Bounds on a USPS text, from what the format holds: the whole USPS set
// is 9298 digits (7291 training and 2007 test, zip.info.txt), one a line,
// so a file has at most that many lines, blank ones counted (the real
// files have none); a line is 257 numbers written with at most 7
// characters each in the real files ("-1.0000", 2052 bytes the longest
// line), so 8 KiB (32 bytes a number) is ample. Together they bound the
// decompressed text to 76 MB, where 1.5 GB of blank lines used to be
// parsed for minutes.
const (
	uspsMaxDigits = 9298
	uspsMaxLine   = 8 << 10
)

// USPSOptions selects USPS digits for LoadUSPS.
type USPSOptions struct {
	// Digits are the classes to draw, in the order they appear in the
	// returned Sets, e.g. {0, 2, 4, 9}. Each must be in 0..9 and appear once.
	Digits []int
	// TrainPerDigit is the number of images of each digit drawn from
	// usps/zip.train.gz, e.g. 100. It must be at least 1.
	TrainPerDigit int
	// TestPerDigit is the number of images of each digit drawn from
	// usps/zip.test.gz, e.g. 100. It must be at least 1.
	TestPerDigit int
}

// uspsFile is one parsed USPS file.
type uspsFile struct {
	path   string    // full path, for errors
	labels []int     // one per image
	pix    []float64 // len(labels)×256, row-major
	byDig  [10][]int // row indices of each digit, in file order
}

// LoadUSPS reads usps/zip.train.gz and usps/zip.test.gz from r (both verified
// against SHA256SUMS) and draws TrainPerDigit training and TestPerDigit test
// images of each digit in o.Digits.
//
// The draws consume rnd in a fixed order: the training images of each digit
// in the order given, then the test images of each digit in the order given.
// Each draw takes distinct images uniformly at random without replacement by
// a partial Fisher–Yates shuffle of that digit's images in file order (the
// i-th image drawn is position i + rnd.IntN(n−i) of the partly shuffled
// list), and images are kept in the order drawn, so the same rnd state always
// gives the same Sets.
//
// The Sets are named "usps-train" and "usps-test", have Width = Height = 16
// and Labels equal to the digit. Asking for more images of a digit than the
// file holds is an error stating how many there are.
func LoadUSPS(r *Root, o USPSOptions, rnd *rand.Rand) (train, test *Set, err error) {
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	if rnd == nil {
		return nil, nil, errors.New("datasets: LoadUSPS: nil random generator")
	}
	trf, err := readUSPS(r, USPSTrainFile)
	if err != nil {
		return nil, nil, err
	}
	tef, err := readUSPS(r, USPSTestFile)
	if err != nil {
		return nil, nil, err
	}
	// Check every count before drawing anything so the error does not
	// depend on which digit happened to be drawn first.
	for _, f := range []struct {
		file *uspsFile
		per  int
		what string
	}{{trf, o.TrainPerDigit, "training"}, {tef, o.TestPerDigit, "test"}} {
		for _, d := range o.Digits {
			if n := len(f.file.byDig[d]); f.per > n {
				return nil, nil, fmt.Errorf("datasets: USPS digit %d: asked for %d %s images but %s has only %d",
					d, f.per, f.what, f.file.path, n)
			}
		}
	}
	train = trf.draw("usps-train", o.Digits, o.TrainPerDigit, rnd)
	test = tef.draw("usps-test", o.Digits, o.TestPerDigit, rnd)
	return train, test, nil
}

func (o USPSOptions) validate() error {
	if len(o.Digits) == 0 {
		return errors.New("datasets: USPS: no digits selected; list the classes to use, e.g. digits: [0, 2, 4, 9]")
	}
	if err := distinctIn("datasets: USPS: digit", o.Digits, 0, 9); err != nil {
		return err
	}
	if o.TrainPerDigit < 1 {
		return fmt.Errorf("datasets: USPS: TrainPerDigit is %d; it must be at least 1", o.TrainPerDigit)
	}
	if o.TestPerDigit < 1 {
		return fmt.Errorf("datasets: USPS: TestPerDigit is %d; it must be at least 1", o.TestPerDigit)
	}
	return nil
}

// draw takes per images of each digit by partial Fisher–Yates, as
// documented on LoadUSPS. The caller has checked the counts.
func (f *uspsFile) draw(name string, digits []int, per int, rnd *rand.Rand) *Set {
	rows := len(digits) * per
	data := make([]float64, 0, rows*uspsPixels)
	labels := make([]int, 0, rows)
	for _, d := range digits {
		idx := append([]int(nil), f.byDig[d]...)
		n := len(idx)
		for i := range per {
			j := i + rnd.IntN(n-i)
			idx[i], idx[j] = idx[j], idx[i]
			k := idx[i]
			data = append(data, f.pix[k*uspsPixels:(k+1)*uspsPixels]...)
			labels = append(labels, d)
		}
	}
	return &Set{
		Name:   name,
		X:      mat.NewDense(rows, uspsPixels, data),
		Labels: labels,
		Width:  USPSSide,
		Height: USPSSide,
	}
}

// USPSCounts returns the number of images of each digit in the verified USPS
// training and test files, indexed by digit. PROVENANCE.md and the dataset's
// zip.info.txt list the expected values (7291 training and 2007 test images).
func USPSCounts(r *Root) (train, test [10]int, err error) {
	for _, c := range []struct {
		rel string
		dst *[10]int
	}{{USPSTrainFile, &train}, {USPSTestFile, &test}} {
		f, err := readUSPS(r, c.rel)
		if err != nil {
			return [10]int{}, [10]int{}, err
		}
		for d := range f.byDig {
			c.dst[d] = len(f.byDig[d])
		}
	}
	return train, test, nil
}

// knownRows are the known sizes of data files, by root-relative path,
// checked by their loaders: USPS from PROVENANCE.md and the dataset's
// zip.info.txt (7291 training and 2007 test images), the Oil Flow splits
// (1000 points each) and the CMU PIE files (68 × 42 = 2856 and 10 × 170 =
// 1700 images) from PROVENANCE.md. Tests that build small fixtures in
// place of the real files clear it.
var knownRows = map[string]int{USPSTrainFile: 7291, USPSTestFile: 2007, OilFlowTrainFile: 1000, "oilflow/DataTrnLbls.txt": 1000,
	"oilflow/DataTst.txt": 1000, "oilflow/DataTstLbls.txt": 1000, "oilflow/DataVdn.txt": 1000, "oilflow/DataVdnLbls.txt": 1000,
	PIE68File: 2856, PIE10File: 1700}

// readUSPS reads, verifies, decompresses and parses one USPS file.
func readUSPS(r *Root, rel string) (*uspsFile, error) {
	b, full, err := r.readFull(rel)
	if err != nil {
		return nil, err
	}
	f, err := decodeUSPS(full, b)
	if err != nil {
		return nil, err
	}
	if want, ok := knownRows[rel]; ok && len(f.labels) != want {
		return nil, fmt.Errorf("datasets: %s: %d digits, want %d (PROVENANCE.md)", full, len(f.labels), want)
	}
	return f, nil
}

// decodeUSPS decompresses and parses the gzip file b of readUSPS; full
// names it in errors.
func decodeUSPS(full string, b []byte) (*uspsFile, error) {
	br := bytes.NewReader(b)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a gzip file: %v", full, err)
	}
	// Read one member. RFC 1952 lets a gzip file hold several members
	// that gunzip concatenates, but each USPS file is one member; a
	// second one (a file appended to itself, or to another) would
	// silently add its digits, so it is an error, not more data.
	zr.Multistream(false)
	f, err := parseUSPS(full, zr)
	if err != nil {
		return nil, err
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("datasets: %s: %v", full, err)
	}
	if err := zr.Reset(br); err != io.EOF {
		return nil, fmt.Errorf("datasets: %s: more than one gzip member (the USPS file is one); the file is corrupt or was concatenated", full)
	}
	return f, nil
}

// parseUSPS parses the decompressed text of a USPS file. name is the full
// path, used in errors.
//
// Fields are split on any white space and parsed with strconv.ParseFloat
// because the training file writes "6.0000 -1.0000 …" with a trailing space
// and the test file "9 -1 -0.948 …" (PROVENANCE.md).
func parseUSPS(name string, rd io.Reader) (*uspsFile, error) {
	f := &uspsFile{path: name}
	err := safefs.Lines(rd, name, uspsMaxLine, uspsMaxDigits, func(line int, b []byte) error {
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			return nil
		}
		if len(fields) != 1+uspsPixels {
			return fmt.Errorf("datasets: %s:%d: want %d fields (digit label and %d×%d grey levels), got %d",
				name, line, 1+uspsPixels, USPSSide, USPSSide, len(fields))
		}
		lab, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || lab != math.Trunc(lab) || lab < 0 || lab > 9 {
			return fmt.Errorf("datasets: %s:%d: label %q is not a digit 0..9", name, line, fields[0])
		}
		for j, s := range fields[1:] {
			v, err := strconv.ParseFloat(s, 64)
			// The negated test also rejects NaN.
			if err != nil || !(v >= -1 && v <= 1) {
				return fmt.Errorf("datasets: %s:%d: pixel %d: %q is not a number in [-1, 1]", name, line, j+1, s)
			}
			f.pix = append(f.pix, v)
		}
		d := int(lab)
		f.byDig[d] = append(f.byDig[d], len(f.labels))
		f.labels = append(f.labels, d)
		return nil
	})
	var (
		tl *safefs.TooLargeError
		tm *safefs.TooManyLinesError
	)
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("datasets: %s: %s is longer than %d bytes, far more than 257 numbers need: the file is corrupt", name, tl.What, uspsMaxLine)
	case errors.As(err, &tm):
		return nil, fmt.Errorf("datasets: %s: more than %d lines, blank ones included, where the whole USPS set has %d digits: the file is corrupt", name, uspsMaxDigits, uspsMaxDigits)
	case err != nil && strings.HasPrefix(err.Error(), "datasets: "):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("datasets: %v", err)
	}
	if len(f.labels) == 0 {
		return nil, fmt.Errorf("datasets: %s: no digits in file", name)
	}
	return f, nil
}
