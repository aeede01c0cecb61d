package datasets

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// ORLFile is the root-relative path of the ORL (AT&T) faces archive
// (PROVENANCE.md, row "orl/att_faces.zip").
const ORLFile = "orl/att_faces.zip"

// ORL's size: 40 subjects × 10 images of 92×112 pixels.
const (
	ORLSubjects = 40
	ORLImages   = 10
	ORLWidth    = 92
	ORLHeight   = 112
)

// maxORLEntry bounds an image entry of the archive: a binary PGM of
// 92×112 8-bit samples is 10304 bytes after a header of a few dozen (the
// format allows comments; 4 KiB of header is far more than any writer
// puts there).
const maxORLEntry = ORLWidth*ORLHeight + 4096

// orlName matches an image inside the archive: att_faces/sN/M.pgm.
var orlName = regexp.MustCompile(`^att_faces/s([0-9]+)/([0-9]+)\.pgm$`)

// LoadORL reads the ORL faces from ORLFile, verified against SHA256SUMS:
// a zip of binary PGMs att_faces/sN/M.pgm, N = 1..40 the subject and
// M = 1..10 the image. The archive's other entries (README, folders) are
// skipped; any other .pgm is an error.
//
// The Set is named "orl", has one 92×112 image a row, row-major, values
// sample/255 in [0, 1] (DecodePGM), Labels = subject number 1..40, ordered
// by subject then image number. A missing or corrupt archive, an image of
// another size, and a subject without exactly 10 images are errors naming
// the file and the fix.
func LoadORL(r *Root) (*Set, error) {
	b, full, err := r.readFull(ORLFile)
	if err != nil {
		return nil, err
	}
	return decodeORL(full, b)
}

// decodeORL decodes the archive b of LoadORL; full names it in errors.
func decodeORL(full string, b []byte) (*Set, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: not a readable zip archive: %v; get it again as described in PROVENANCE.md", full, err)
	}
	entries, err := orlEntries(full, zr)
	if err != nil {
		return nil, err
	}
	data := make([]float64, 0, len(entries)*ORLWidth*ORLHeight)
	labels := make([]int, len(entries))
	names := make([]string, len(entries))
	sums := make([][sha256.Size]byte, len(entries))
	for k, e := range entries {
		pb, err := readORLEntry(full, e.f)
		if err != nil {
			return nil, err
		}
		names[k], sums[k] = e.f.Name, sha256.Sum256(pb)
		name := full + ":" + e.f.Name
		g, err := DecodePGM(name, pb)
		if err != nil {
			return nil, err
		}
		if g.Width != ORLWidth || g.Height != ORLHeight {
			return nil, fmt.Errorf("datasets: %s is %d×%d, want %d×%d", name, g.Width, g.Height, ORLWidth, ORLHeight)
		}
		data = append(data, g.Pix...)
		labels[k] = e.subject
	}
	if err := duplicates(full, "the same contents", names, sums); err != nil {
		return nil, err
	}
	return imageSet("orl", data, labels, ORLWidth, ORLHeight), nil
}

// orlEntry is one image of the ORL archive.
type orlEntry struct {
	subject, image int
	f              *zip.File
}

// orlEntries returns the archive's images by subject and image number,
// checking that every subject has ORLImages of them.
func orlEntries(full string, zr *zip.Reader) ([]orlEntry, error) {
	var entries []orlEntry
	count := map[int]int{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || filepath.Ext(f.Name) != ".pgm" {
			continue
		}
		m := orlName.FindStringSubmatch(f.Name)
		if m == nil {
			return nil, fmt.Errorf("datasets: %s: entry %s is not named att_faces/sN/M.pgm; get the archive again as described in PROVENANCE.md", full, f.Name)
		}
		s, _ := strconv.Atoi(m[1])
		i, _ := strconv.Atoi(m[2])
		if s < 1 || s > ORLSubjects || i < 1 || i > ORLImages {
			return nil, fmt.Errorf("datasets: %s: entry %s: subject %d or image %d outside 1..%d, 1..%d", full, f.Name, s, i, ORLSubjects, ORLImages)
		}
		entries = append(entries, orlEntry{s, i, f})
		count[s]++
	}
	for s := 1; s <= ORLSubjects; s++ {
		if count[s] != ORLImages {
			return nil, fmt.Errorf("datasets: %s: subject s%d has %d images, want %d; get the archive again as described in PROVENANCE.md", full, s, count[s], ORLImages)
		}
	}
	sort.Slice(entries, func(a, b int) bool {
		if entries[a].subject != entries[b].subject {
			return entries[a].subject < entries[b].subject
		}
		return entries[a].image < entries[b].image
	})
	return entries, nil
}

// readORLEntry reads an entry of the archive to its end, which checks its
// CRC-32 and its declared size, but never more than a PGM of ORL's size
// holds.
func readORLEntry(full string, f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > maxORLEntry {
		return nil, fmt.Errorf("datasets: %s: entry %s declares %d bytes, more than a %d×%d PGM can hold (%d); get the archive again as described in PROVENANCE.md",
			full, f.Name, f.UncompressedSize64, ORLWidth, ORLHeight, maxORLEntry)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: entry %s: %v", full, f.Name, err)
	}
	pb, err := io.ReadAll(io.LimitReader(rc, maxORLEntry+1))
	rc.Close()
	if err == nil && len(pb) > maxORLEntry {
		err = fmt.Errorf("inflates to more than the %d bytes a %d×%d PGM can hold", maxORLEntry, ORLWidth, ORLHeight)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: entry %s: %v; get the archive again as described in PROVENANCE.md", full, f.Name, err)
	}
	return pb, nil
}
