package datasets_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/datasets"
)

// A data root is a folder with a SHA256SUMS; every file read through it
// is checked against its line, and a PGM face decodes to grey levels in
// [0, 1]. (The real root is ../shared/data, passed by --data or
// RUNEXP_DATA; this example builds a one-file root.)
func ExampleRoot_ReadFile() {
	dir, err := os.MkdirTemp("", "root")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// A 3×2 binary PGM with maxval 255: a dark row over a light one.
	face := append([]byte("P5\n3 2\n255\n"), 0, 51, 102, 153, 204, 255)
	if err := os.MkdirAll(filepath.Join(dir, "faces"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "faces", "a.pgm"), face, 0o644); err != nil {
		log.Fatal(err)
	}
	sum := sha256.Sum256(face)
	sums := hex.EncodeToString(sum[:]) + "  ./faces/a.pgm\n"
	if err := os.WriteFile(filepath.Join(dir, datasets.SumsFile), []byte(sums), 0o644); err != nil {
		log.Fatal(err)
	}

	r, err := datasets.OpenRoot(dir)
	if err != nil {
		log.Fatal(err)
	}
	b, err := r.ReadFile("faces/a.pgm")
	if err != nil {
		log.Fatal(err)
	}
	g, err := datasets.DecodePGM("faces/a.pgm", b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Width, g.Height, g.Pix)

	// The same file with one byte changed no longer matches its line.
	face[len(face)-1] = 0
	if err := os.WriteFile(filepath.Join(dir, "faces", "a.pgm"), face, 0o644); err != nil {
		log.Fatal(err)
	}
	_, err = r.ReadFile("faces/a.pgm")
	fmt.Println(strings.Contains(err.Error(), "checksum mismatch"))
	// Output:
	// 3 2 [0 0.2 0.4 0.6 0.8 1]
	// true
}
