package datasets

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/safefs"
)

// EnvDataRoot is the environment variable naming the data root when the
// --data flag is not given.
const EnvDataRoot = "RUNEXP_DATA"

// SumsFile is the name of the checksum list at the top of a data root.
const SumsFile = "SHA256SUMS"

// MaxDataFileBytes bounds a data file ReadFile reads: the data root's
// largest file (orl/att_faces.zip) is 3.8 MB, so 64 MiB leaves room for
// another copy of a dataset and keeps a runaway file (or a device linked
// in its place, refused anyway) from exhausting memory.
const MaxDataFileBytes = 64 << 20

// maxSumsBytes bounds SHA256SUMS: 7179 lines of about 100 bytes in the
// data root, so 16 MiB holds over 100 000 files.
const maxSumsBytes = 16 << 20

// Set is a data matrix with optional labels.
type Set struct {
	// Name identifies the set in records and reports, e.g. "usps-train".
	Name string
	// X holds one sample per row.
	X *mat.Dense
	// Labels holds one label per row of X, or is nil for unlabelled data.
	Labels []int
	// LabelNames, when set, names each label value: LabelNames[l] is the
	// name of label l (e.g. a face's condition).
	LabelNames []string
	// Width and Height are the image size when the rows of X are images
	// stored row-major (Width*Height == number of columns), and 0 otherwise.
	Width, Height int
}

// FileSum is a data file read during a run and its SHA-256, for the run
// manifest.
type FileSum struct {
	// Path is relative to the data root, with forward slashes and no
	// leading "./", e.g. "usps/zip.train.gz".
	Path string
	// SHA256 is the lower-case hexadecimal digest.
	SHA256 string
}

// Root is a data root directory: the place the --data flag or RUNEXP_DATA
// points at, holding the datasets and their SHA256SUMS.
//
// A Root is safe for concurrent use.
type Root struct {
	// Dir is the absolute path of the data root.
	Dir string

	// sums maps a cleaned root-relative path to its expected lower-case
	// hex SHA-256. It is written only by OpenRoot, so reads need no lock.
	sums map[string]string

	mu sync.Mutex
	// read holds the files ReadFile has verified, for Files.
	read map[string]string
}

// OpenRoot resolves the data root and reads its SHA256SUMS.
//
// The root is flagValue if it is non-empty, otherwise the value of the
// RUNEXP_DATA environment variable; if both are empty OpenRoot returns an
// error telling the user how to set one. A root without a SHA256SUMS file is
// an error naming the path looked at, since a root that cannot be verified is
// almost always the wrong directory.
func OpenRoot(flagValue string) (*Root, error) {
	dir := flagValue
	source := "--data"
	if dir == "" {
		dir = os.Getenv(EnvDataRoot)
		source = EnvDataRoot
	}
	if dir == "" {
		return nil, errors.New("datasets: no data root: pass --data DIR or set " + EnvDataRoot +
			" (e.g. " + EnvDataRoot + "=../shared/data); the directory must hold the datasets and their " +
			SumsFile + " as described in PROVENANCE.md")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("datasets: data root %q (from %s): %v", dir, source, err)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("datasets: data root %s (from %s) does not exist; point --data or %s at the directory holding %s (e.g. ../shared/data)",
			abs, source, EnvDataRoot, SumsFile)
	case err != nil:
		return nil, fmt.Errorf("datasets: data root %s (from %s): %v", abs, source, err)
	case !info.IsDir():
		return nil, fmt.Errorf("datasets: data root %s (from %s) is not a directory; point --data or %s at the directory holding %s",
			abs, source, EnvDataRoot, SumsFile)
	}

	sumsPath := filepath.Join(abs, SumsFile)
	b, err := safefs.ReadFile(sumsPath, maxSumsBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("datasets: %s not found: %s (from %s) is not a runexp data root; point --data or %s at the directory holding the datasets and %s (e.g. ../shared/data)",
			sumsPath, abs, source, EnvDataRoot, SumsFile)
	case err != nil:
		return nil, fmt.Errorf("datasets: reading %s: %v", sumsPath, err)
	}
	sums, err := parseSums(sumsPath, b)
	if err != nil {
		return nil, err
	}
	return &Root{Dir: abs, sums: sums}, nil
}

// parseSums parses the output of sha256sum: "<64 hex digits> <space or *><path>"
// a line, paths usually written "./dir/file". name is used in errors only.
func parseSums(name string, b []byte) (map[string]string, error) {
	sums := make(map[string]string)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		// GNU sha256sum marks a line whose file name holds a backslash or
		// newline with a leading backslash and escapes those characters.
		escaped := strings.HasPrefix(s, `\`)
		if escaped {
			s = s[1:]
		}
		const hashLen = 2 * sha256.Size
		if len(s) < hashLen+2 || s[hashLen] != ' ' || (s[hashLen+1] != ' ' && s[hashLen+1] != '*') {
			return nil, fmt.Errorf("datasets: %s:%d: not a sha256sum line (want \"<64 hex digits>  ./path\")", name, line)
		}
		sum := strings.ToLower(s[:hashLen])
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("datasets: %s:%d: checksum %q is not hexadecimal", name, line, s[:hashLen])
		}
		p := s[hashLen+2:]
		if escaped {
			p = strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(p)
		}
		key, ok := cleanRel(p)
		if !ok {
			return nil, fmt.Errorf("datasets: %s:%d: path %q is not inside the data root", name, line, p)
		}
		if prev, dup := sums[key]; dup && prev != sum {
			return nil, fmt.Errorf("datasets: %s:%d: ./%s listed twice with different checksums", name, line, key)
		}
		sums[key] = sum
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("datasets: reading %s: %v", name, err)
	}
	return sums, nil
}

// cleanRel turns a root-relative path as a user or SHA256SUMS writes it
// ("./usps/zip.train.gz", "usps\zip.train.gz" on Windows) into the key used
// for lookups. It reports false for paths that would leave the root.
func cleanRel(rel string) (string, bool) {
	p := path.Clean(filepath.ToSlash(rel))
	if p == "." || path.IsAbs(p) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return "", false
	}
	return p, true
}

// Sum returns the SHA-256 that SHA256SUMS lists for the root-relative path
// rel, and whether it lists one. It reads nothing: callers that key a
// derived-data cache on a file's content use it, and still read the file
// with ReadFile, which verifies it.
func (r *Root) Sum(rel string) (string, bool) {
	if r == nil {
		return "", false
	}
	key, ok := cleanRel(rel)
	if !ok {
		return "", false
	}
	s, ok := r.sums[key]
	return s, ok
}

// ReadFile reads the file at root-relative path rel (e.g. "usps/zip.train.gz"),
// verifies its SHA-256 against SHA256SUMS and returns its contents.
//
// The bytes are hashed on every call rather than cached, so a file replaced
// during a long run is caught and large image collections are not pinned in
// memory. All errors name the full path of the file and how to fix the
// problem; ReadFile does not panic, even on a nil or zero Root.
func (r *Root) ReadFile(rel string) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("datasets: reading %q: no data root; pass --data DIR or set %s", rel, EnvDataRoot)
	}
	key, ok := cleanRel(rel)
	if !ok {
		return nil, fmt.Errorf("datasets: %q is not a path inside the data root %s", rel, r.Dir)
	}
	full := filepath.Join(r.Dir, filepath.FromSlash(key))
	b, err := safefs.ReadFile(full, MaxDataFileBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("datasets: %s not found; get the dataset as described in PROVENANCE.md into %s (the data root, set by --data or %s)",
			full, r.Dir, EnvDataRoot)
	case err != nil:
		return nil, fmt.Errorf("datasets: reading %s: %v", full, err)
	}
	want, ok := r.sums[key]
	if !ok {
		return nil, fmt.Errorf("datasets: %s has no checksum line in %s; if the file is the one described in PROVENANCE.md, add it with `cd %s && sha256sum ./%s >> %s`",
			full, filepath.Join(r.Dir, SumsFile), r.Dir, key, SumsFile)
	}
	h := sha256.Sum256(b)
	got := hex.EncodeToString(h[:])
	if got != want {
		return nil, fmt.Errorf("datasets: checksum mismatch for %s: %s expects %s, the file has %s; the file is corrupt or a different version: get it again as described in PROVENANCE.md",
			full, SumsFile, want, got)
	}
	r.mu.Lock()
	if r.read == nil {
		r.read = make(map[string]string)
	}
	r.read[key] = got
	r.mu.Unlock()
	return b, nil
}

// readFull is ReadFile that also returns the file's path in the root
// (rel itself without a root), which errors about its contents name.
func (r *Root) readFull(rel string) (b []byte, full string, err error) {
	b, err = r.ReadFile(rel)
	if err != nil {
		return nil, "", err
	}
	full = rel
	if r != nil {
		full = filepath.Join(r.Dir, filepath.FromSlash(rel))
	}
	return b, full, nil
}

// Files returns the root-relative paths ReadFile has verified so far with
// their SHA-256, sorted by path, for the run manifest.
func (r *Root) Files() []FileSum {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]FileSum, 0, len(r.read))
	for p, s := range r.read {
		out = append(out, FileSum{Path: p, SHA256: s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// List returns the root-relative paths of the files SHA256SUMS lists under
// the folder dir (e.g. "yaleb/CroppedYale"), at any depth, sorted. An empty
// dir or "." lists every file; a dir outside the root lists nothing.
//
// Loaders that read a collection of files take their index from here, not
// from the directory on disk: a file without a checksum line cannot be
// verified, so ReadFile would refuse it anyway, and a file SHA256SUMS lists
// but the disk lacks is reported by ReadFile as missing rather than silently
// dropped from the data set. The data set is then exactly the one the
// reproduction was checked on, whatever else lies in the directory.
func (r *Root) List(dir string) []string {
	if r == nil {
		return nil
	}
	prefix := ""
	if d := path.Clean(filepath.ToSlash(dir)); d != "." && d != "" {
		key, ok := cleanRel(d)
		if !ok {
			return nil
		}
		prefix = key + "/"
	}
	var out []string
	for p := range r.sums {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
