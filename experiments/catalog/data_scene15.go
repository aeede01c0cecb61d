package catalog

import (
	"fmt"
	"runtime"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[datasets.GISTOptions]{
		Name:      "scene15",
		Doc:       "Scene-15 (scene15/data, train and test folders pooled: 4485 images, 15 classes) as 512-d GIST descriptors computed by runexp",
		NeedsRoot: true,
		Parse:     scene15Options,
		Shape: func(o datasets.GISTOptions) runner.Shape {
			// 4485 images (PROVENANCE.md) as 512-d GIST (4×4 blocks × 32
			// Gabor filters); computing them holds the 32 filters of the
			// padded side (gist_size + 64)² and, per worker, a few complex
			// planes of it.
			side := float64(o.ImageSize + 64)
			work := (32*8 + 8*16*float64(runtime.GOMAXPROCS(0))) * side * side
			return runner.Shape{Points: 4485, Dim: 512, Work: work}
		},
		Load: func(env *runner.Env, root *datasets.Root, o datasets.GISTOptions) (*runner.Data, error) {
			// The descriptors are computed once per process: every config
			// run together (Tables 5–6, Fig. 6) shares them, since they take
			// minutes. The root's files are checked against its SHA256SUMS,
			// so within a process its directory names their content.
			key := fmt.Sprintf("scene15-gist|%s|%d", root.Dir, o.ImageSize)
			set, err := runner.Memo(env, key, func() (*datasets.Set, error) { return loadScene15(env, root, o) })
			return train(set, err)
		},
	}))
}

// loadScene15 computes the GIST descriptors, or reads them from the run
// cache when an earlier run computed them from the same image files
// (named by their SHA-256) with the same options and GISTVersion. A cache
// hit still reads and verifies every image, as a computing run does, so a
// changed or missing file is an error and the manifest lists the files.
func loadScene15(env *runner.Env, root *datasets.Root, o datasets.GISTOptions) (*datasets.Set, error) {
	var path, key string
	if env.CacheDir != "" {
		imgs, err := datasets.ListScene15(root)
		if err != nil {
			return nil, err
		}
		// The descriptors' own key names the code that computes them
		// (the datasets package, GIST included) besides GISTVersion, so
		// an edit to it cannot leave stale descriptors in the cache.
		code, err := runner.CodeFingerprint("internal/datasets/gist.go")
		if err != nil {
			return nil, err
		}
		parts := []string{"scene15-gist", datasets.GISTVersion, code, fmt.Sprintf("%+v", o)}
		for _, im := range imgs {
			sum, _ := root.Sum(im.Path)
			parts = append(parts, im.Path+" "+sum)
		}
		path, key = featureCachePath(env.CacheDir, "scene15-gist", parts...)
		if set, ok := readFeatures(path, key); ok {
			for _, im := range imgs {
				if _, err := root.ReadFile(im.Path); err != nil {
					return nil, err
				}
			}
			env.Log.Info("GIST descriptors of Scene-15 from the cache", "file", path)
			return set, nil
		}
	}
	start := time.Now()
	env.Log.Info("computing GIST descriptors of Scene-15", "image_size", o.ImageSize)
	set, _, err := datasets.LoadScene15GIST(root, o, 0)
	if err != nil {
		return nil, err
	}
	n, d := set.X.Dims()
	env.Log.Info("GIST done", "images", n, "dims", d, "seconds", time.Since(start).Seconds())
	if path != "" {
		if err := writeFeatures(path, key, set); err != nil {
			// The descriptors are correct; only the next run is slower.
			env.Log.Warn("could not cache the GIST descriptors", "file", path, "err", err)
		}
	}
	return set, nil
}

// scene15Options reads the GIST options: gist_size is the side images are
// resized to before GIST (LMgist's imageSize, 256).
func scene15Options(s config.Section) (datasets.GISTOptions, error) {
	r := s.Reader("dataset")
	o := datasets.GISTOptions{ImageSize: r.Int("gist_size", 256, 8)}
	return o, r.Err()
}
