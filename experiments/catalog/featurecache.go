package catalog

import (
	"github.com/runexp/runexp/internal/safefs"

	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
)

// featureFile is a data set of derived features kept in the run cache
// (Scene-15 GIST descriptors take 20–40 minutes on 2 cores, against
// seconds for everything else a fully cached rerun does).
type featureFile struct {
	// Key repeats the cache key, so a file renamed by hand is not trusted.
	Key        string
	Name       string
	Rows, Cols int
	Data       []float64
	Labels     []int
	LabelNames []string
}

// maxFeatureBytes bounds a feature file read back: Scene-15's GIST
// descriptors are 4485 × 512 float64, 18 MB.
const maxFeatureBytes = 1 << 30

// featureCachePath returns the file holding the features named by parts
// (definition version, options, each input file with its SHA-256) under
// dir, and the key itself.
func featureCachePath(dir, prefix string, parts ...string) (path, key string) {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	key = hex.EncodeToString(h.Sum(nil))
	return filepath.Join(dir, "features", prefix+"-"+key[:24]+".gob"), key
}

// readFeatures returns the cached set at path, or ok false when there is
// none or it does not hold key (a corrupt or foreign file is recomputed,
// never trusted).
func readFeatures(path, key string) (set *datasets.Set, ok bool) {
	// Inside the cache folder nothing is followed (runner.Cache's policy).
	if safefs.CheckUnder(filepath.Dir(filepath.Dir(path)), filepath.Dir(path)) != nil {
		return nil, false
	}
	b, err := safefs.ReadFile(path, maxFeatureBytes)
	if err != nil {
		return nil, false
	}
	var f featureFile
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&f); err != nil {
		return nil, false
	}
	if f.Key != key || f.Rows*f.Cols != len(f.Data) || f.Rows == 0 || len(f.Labels) != f.Rows {
		return nil, false
	}
	return &datasets.Set{Name: f.Name, X: mat.NewDense(f.Rows, f.Cols, f.Data), Labels: f.Labels, LabelNames: f.LabelNames}, true
}

// writeFeatures stores set at path atomically.
func writeFeatures(path, key string, set *datasets.Set) error {
	r, c := set.X.Dims()
	f := featureFile{Key: key, Name: set.Name, Rows: r, Cols: c, Data: mat.DenseCopyOf(set.X).RawMatrix().Data,
		Labels: set.Labels, LabelNames: set.LabelNames}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&f); err != nil {
		return err
	}
	if err := safefs.MkdirUnder(filepath.Dir(filepath.Dir(path)), filepath.Dir(path)); err != nil {
		return err
	}
	return report.WriteFileAtomic(path, buf.Bytes())
}
