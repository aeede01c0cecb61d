package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/safefs"
)

// TestWriteIndexSkipsLinkedFolders: a folder of the results root that is
// a link to a run elsewhere gets no index.html written into it and is not
// listed (issue #46: every run wrote an index.html through it), and a
// run's tables.md linked out of its folder is refused, naming it.
func TestWriteIndexSkipsLinkedFolders(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	writeFakeRun(t, filepath.Join(root, "real"), "Real", nil)
	writeFakeRun(t, elsewhere, "Elsewhere", nil)
	os.Remove(filepath.Join(elsewhere, "index.html"))
	if err := os.Symlink(elsewhere, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "index.html")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an index.html was written through the link: %v", err)
	}
	idx, _ := os.ReadFile(filepath.Join(root, "index.html"))
	if strings.Contains(string(idx), "linked") || !strings.Contains(string(idx), "real") {
		t.Errorf("the root index lists the linked folder, or not the real one")
	}
	// A file of a run linked out of the run's folder.
	secret := filepath.Join(t.TempDir(), "tables.md")
	os.WriteFile(secret, []byte("# secret\n"), 0o644)
	os.Remove(filepath.Join(root, "real", "tables.md"))
	os.Symlink(secret, filepath.Join(root, "real", "tables.md"))
	var oe *safefs.OutsideError
	if err := WriteIndex(root); !errors.As(err, &oe) || !strings.Contains(err.Error(), "tables.md") {
		t.Errorf("tables.md linked out of the run: %v, want a refusal naming it", err)
	}
}

// TestReadPNGHeadGiant: the page of a run reads a figure's size, caption
// and label height from the chunks before its image data, however large
// the image (issue #46: a 500 MB PNG made a tiny run's index peak at 1.8
// GB). The PNG here claims 512 MB of image data in a sparse file.
func TestReadPNGHeadGiant(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	b, err := pngWithText(buf.Bytes(), pngCaptionKeyword, "the caption")
	if err != nil {
		t.Fatal(err)
	}
	if b, err = withTextPx(b, 7); err != nil {
		t.Fatal(err)
	}
	// Cut at the first IDAT and claim 512 MB of it.
	i := bytes.Index(b, []byte("IDAT")) - 4
	head := append([]byte(nil), b[:i]...)
	chunk := binary.BigEndian.AppendUint32(nil, 512<<20)
	chunk = append(chunk, "IDAT"...)
	head = append(head, chunk...)
	p := filepath.Join(t.TempDir(), "giant.png")
	if err := os.WriteFile(p, head, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, int64(len(head))+512<<20+4); err != nil {
		t.Skip(err)
	}
	h, err := ReadPNGHead(p)
	if err != nil || h.W != 3 || h.H != 2 || h.Caption != "the caption" || h.TextPx != 7 {
		t.Errorf("ReadPNGHead = %+v, %v; want 3×2, the caption, 7 px", h, err)
	}
	if c, err := ReadCaption(p); err != nil || c != "the caption" {
		t.Errorf("ReadCaption = %q, %v", c, err)
	}
	// Zeros where chunks should be: no image data is found, quickly.
	z := filepath.Join(t.TempDir(), "zeros.png")
	os.WriteFile(z, b[:33], 0o644)
	os.Truncate(z, 256<<20)
	if h, err := ReadPNGHead(z); err != nil || h.W != 0 {
		t.Errorf("a PNG of zeros after IHDR: %+v, %v; want an empty head", h, err)
	}
}
