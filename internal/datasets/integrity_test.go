package datasets

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storedMAT is a MAT-file holding inner (a matrix element) in a
// compressed element whose zlib stream uses stored (uncompressed) deflate
// blocks, so that a byte of the matrix can be changed in place without
// breaking the deflate structure: only the Adler-32 notices.
func storedMAT(w matWriter, inner []byte) (file []byte, payload int) {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.NoCompression)
	zw.Write(inner)
	zw.Close()
	head := w.file()[:128]
	var tag [8]byte
	w.o.PutUint32(tag[:4], miCOMPRESSED)
	w.o.PutUint32(tag[4:], uint32(z.Len()))
	// zlib header (2 bytes) and the stored block's header (5 bytes)
	// precede the first payload byte.
	return append(append(head, tag[:]...), z.Bytes()...), 128 + 8 + 2 + 5
}

// TestMATChecksum is case 1 of issue #28: a compressed MAT element whose
// payload was altered (SHA256SUMS regenerated) inflates to the declared
// size with wrong values; only the zlib stream's Adler-32 tells. It must
// be an error, as must data after the matrix inside the stream and bytes
// after the stream's end.
func TestMATChecksum(t *testing.T) {
	w := matWriter{binary.LittleEndian}
	small := w.matrix(matVar{name: "fea", class: 6, dims: []int32{2, 3}, store: miDOUBLE, colMajor: m23})
	good, at := storedMAT(w, small)
	if _, err := DecodeMAT(good); err != nil {
		t.Fatalf("intact stored stream: %v", err)
	}
	// The last byte of the last double (6 = 0x4018000000000000, little
	// endian: its sign and exponent byte) becomes 0xc0: the value -6.
	bad := bytes.Clone(good)
	bad[at+len(small)-1] ^= 0x80
	arrs, err := DecodeMAT(bad)
	wantErr(t, err, "Adler-32", `variable "fea"`, "element at byte 128")
	if arrs != nil {
		t.Errorf("returned %v with the error", arrs)
	}

	// The checksum itself altered.
	bad = bytes.Clone(good)
	bad[len(bad)-1] ^= 0x01
	_, err = DecodeMAT(bad)
	wantErr(t, err, "Adler-32")

	// Zeros after the matrix inside the stream (the campaign had 3 GiB
	// of them in a 5.7 MB file; 1 MiB shows the same).
	_, err = DecodeMAT(compressedMAT(w, small, 1<<20))
	wantErr(t, err, "more data after the matrix")

	// Bytes after the end of the zlib stream, inside the element.
	pad := bytes.Clone(good)
	pad = append(pad, 0, 0, 0)
	binary.LittleEndian.PutUint32(pad[132:136], binary.LittleEndian.Uint32(pad[132:136])+3)
	_, err = DecodeMAT(pad)
	wantErr(t, err, "3 bytes after the end of the zlib stream")

	// A variable of a class that is not decoded (a struct) is read to the
	// end of its stream too.
	st := w.matrix(matVar{name: "info", class: 2, dims: []int32{1, 1}, store: miUINT8, colMajor: []float64{7, 7, 7, 7, 7, 7, 7, 7}})
	good, at = storedMAT(w, st)
	arrs, err = DecodeMAT(good)
	if err != nil || len(arrs) != 1 || arrs[0].Unsupported == "" {
		t.Fatalf("struct: %v, %v", arrs, err)
	}
	bad = bytes.Clone(good)
	bad[at+len(st)-1] ^= 0x01
	_, err = DecodeMAT(bad)
	wantErr(t, err, "Adler-32", `variable "info"`)
}

// yaleFacesFixture returns the 165 Yale face files, each a distinct
// 320×243 GIF except the 9 pairs PROVENANCE.md lists as identical.
func yaleFacesFixture(t *testing.T) map[string][]byte {
	t.Helper()
	pal := color.Palette{}
	for i := 0; i < 256; i++ {
		pal = append(pal, color.Gray{uint8(i)})
	}
	files := map[string][]byte{}
	id := 0
	for s := 1; s <= yaleFacesSubj; s++ {
		for _, c := range YaleFacesConditions {
			im := image.NewPaletted(image.Rect(0, 0, YaleFacesWidth, YaleFacesHeight), pal)
			// Row 1 (row 0 is cropped) identifies the image.
			im.Pix[YaleFacesWidth] = uint8(id)
			im.Pix[YaleFacesWidth+1] = uint8(id >> 8)
			id++
			var buf bytes.Buffer
			if err := gif.Encode(&buf, im, nil); err != nil {
				t.Fatal(err)
			}
			files[fmt.Sprintf("yalefaces/subject%02d.%s", s, c)] = buf.Bytes()
		}
	}
	for p := range knownDuplicates {
		if strings.HasPrefix(p[0], "yalefaces/") {
			// Every known pair holds a normal image: copy it over the other.
			src, dst := p[0], p[1]
			if strings.HasSuffix(dst, ".normal") {
				src, dst = dst, src
			}
			files[dst] = files[src]
		}
	}
	return files
}

// TestDuplicateEntries is case 2 of issue #28: a Yale face copied over
// another (SHA256SUMS regenerated) used to run huang-table1 to exit 1 with
// moved claims and nothing naming the data. Two entries of a dataset with
// the same content are an error naming both, unless PROVENANCE.md lists
// the pair; the same holds for the same pixels under different bytes, for
// Scene-15 and Yale B files and for ORL's archive entries.
func TestDuplicateEntries(t *testing.T) {
	files := yaleFacesFixture(t)
	set, faces, err := LoadYaleFaces(mustOpen(t, writeRoot(t, files)), YaleFacesOptions{Dedupe: true})
	if err != nil {
		t.Fatalf("the 9 known pairs: %v", err)
	}
	if r, _ := set.X.Dims(); r != 156 || len(faces) != 156 {
		t.Fatalf("%d rows, want 156 distinct images", r)
	}

	// The campaign's case: subject02.happy copied over subject01.happy.
	bad := maps.Clone(files)
	bad["yalefaces/subject01.happy"] = files["yalefaces/subject02.happy"]
	_, _, err = LoadYaleFaces(mustOpen(t, writeRoot(t, bad)), YaleFacesOptions{})
	wantErr(t, err, "yalefaces/subject01.happy and yalefaces/subject02.happy have the same SHA-256", "SHA256SUMS")

	// The same pixels in other bytes: a GIF re-encoded with a comment
	// block... here, with a different palette order.
	bad = maps.Clone(files)
	bad["yalefaces/subject01.happy"] = reencodeGIF(t, files["yalefaces/subject02.happy"])
	if bytes.Equal(bad["yalefaces/subject01.happy"], files["yalefaces/subject02.happy"]) {
		t.Fatal("fixture: re-encoding kept the bytes")
	}
	_, _, err = LoadYaleFaces(mustOpen(t, writeRoot(t, bad)), YaleFacesOptions{})
	wantErr(t, err, "yalefaces/subject01.happy and yalefaces/subject02.happy have the same pixels")

	// Yale B: two selected images with one content.
	f := newYaleBFixture()
	f.files[yaleBRel(1, "A+010E+00")] = f.files[yaleBRel(1, "A-005E-10")]
	_, _, err = LoadYaleB(mustOpen(t, f.root(t, nil)), YaleBOptions{Subsets: []int{1, 2, 3, 4, 5}})
	wantErr(t, err, "yaleB01_P00A+010E+00.pgm and", "yaleB01_P00A-005E-10.pgm have the same SHA-256")

	// ORL: two archive entries with one content.
	_, err = LoadORL(mustOpen(t, writeRoot(t, map[string][]byte{ORLFile: orlArchive(func(s, i int) []byte {
		if s == 7 && i == 3 {
			return orlPGM(2, 5)
		}
		return orlPGM(s, i)
	})})))
	wantErr(t, err, "att_faces/s2/5.pgm and att_faces/s7/3.pgm have the same contents")
}

// orlPGM is a 92×112 PGM whose first two samples are s and i.
func orlPGM(s, i int) []byte {
	px := make([]byte, ORLWidth*ORLHeight)
	px[0], px[1] = byte(s), byte(i)
	return append([]byte("P5 92 112 255\n"), px...)
}

// orlArchive is a zip of the 400 ORL entries, entry(s, i) the contents of
// att_faces/sS/I.pgm.
func orlArchive(entry func(s, i int) []byte) []byte {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for s := 1; s <= ORLSubjects; s++ {
		for i := 1; i <= ORLImages; i++ {
			w, _ := zw.Create(fmt.Sprintf("att_faces/s%d/%d.pgm", s, i))
			w.Write(entry(s, i))
		}
	}
	zw.Close()
	return zbuf.Bytes()
}

// reencodeGIF decodes a GIF and encodes it again with its palette
// reversed: other bytes, the same picture.
func reencodeGIF(t *testing.T, b []byte) []byte {
	t.Helper()
	im, err := gif.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	p := im.(*image.Paletted)
	n := len(p.Palette)
	rev := make(color.Palette, n)
	for i, c := range p.Palette {
		rev[n-1-i] = c
	}
	q := image.NewPaletted(p.Rect, rev)
	for i, v := range p.Pix {
		q.Pix[i] = uint8(n - 1 - int(v))
	}
	var buf bytes.Buffer
	if err := gif.Encode(&buf, q, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestScene15KnownDuplicates: the data root's 18 known pairs of Scene-15
// images pass; another pair is an error naming both.
func TestScene15KnownDuplicates(t *testing.T) {
	files := map[string][]byte{}
	n := 0
	for _, c := range Scene15Classes {
		files[fmt.Sprintf("scene15/data/train/%s/image_0001.jpg", c)] = []byte{byte(n)}
		n++
	}
	for p := range knownDuplicates {
		if strings.HasPrefix(p[0], "scene15/") {
			files[p[0]] = []byte("dup" + p[0])
			files[p[1]] = []byte("dup" + p[0])
		}
	}
	if _, err := ListScene15(mustOpen(t, writeRoot(t, files))); err != nil {
		t.Fatalf("known pairs: %v", err)
	}
	files["scene15/data/test/coast/image_0009.jpg"] = files["scene15/data/train/forest/image_0001.jpg"]
	_, err := ListScene15(mustOpen(t, writeRoot(t, files)))
	wantErr(t, err, "scene15/data/test/coast/image_0009.jpg and scene15/data/train/forest/image_0001.jpg have the same SHA-256")
}

// TestUSPSBounds is case 3 of issue #28: 1.5 GB of blank lines before the
// USPS text were parsed for minutes and accepted. A USPS file holds at
// most 9298 lines (the whole set's digits), blank ones counted, of at most
// 8 KiB each; 10 000 blank lines (the same bound as 1.5 GB shows) and a
// line of 1 MiB are errors that say so.
func TestUSPSBounds(t *testing.T) {
	text := fixtureUSPSText([]int{0, 1, 2}, trainStyle)
	for name, tc := range map[string]struct {
		text string
		want string
	}{
		"blank lines": {strings.Repeat("\n", 10000) + text, "more than 9298 lines, blank ones included"},
		"long line":   {strings.Repeat(" ", 1<<20) + text, "line 1 is longer than 8192 bytes"},
	} {
		_, err := decodeUSPS("usps/zip.train.gz", gz(t, tc.text))
		wantErr(t, err, "usps/zip.train.gz", tc.want)
		_ = name
	}
	if f, err := decodeUSPS("x", gz(t, strings.Repeat("\n", 100)+text)); err != nil || len(f.labels) != 3 {
		t.Errorf("100 blank lines and 3 digits: %v", err)
	}
}

// TestDataFileBounds: a data file that is not a regular file is refused
// by name (before reading: /dev/zero would never end, a FIFO block), and
// an image header declaring more pixels than a data image has is refused
// before it is decoded.
func TestDataFileBounds(t *testing.T) {
	dir := writeRoot(t, map[string][]byte{"oilflow/DataTrn.txt": []byte("x\n")})
	r := mustOpen(t, dir)
	p := filepath.Join(dir, "oilflow", "DataTrn.txt")
	os.Remove(p)
	os.Symlink("/dev/zero", p)
	_, err := r.ReadFile("oilflow/DataTrn.txt")
	wantErr(t, err, p, "not a regular file", "character device")

	var buf bytes.Buffer
	jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	b := buf.Bytes()
	// The SOF0 segment's height and width follow its marker, length and
	// precision.
	i := bytes.Index(b, []byte{0xff, 0xc0})
	binary.BigEndian.PutUint16(b[i+5:], 60000)
	binary.BigEndian.PutUint16(b[i+7:], 60000)
	_, err = DecodeJPEGGray("big.jpg", b)
	wantErr(t, err, "big.jpg", "60000×60000")

	// An ORL entry declaring more than a 92×112 PGM holds.
	_, err = decodeORL("att_faces.zip", orlArchive(func(s, i int) []byte {
		if s == 1 && i == 1 {
			return append(orlPGM(s, i), make([]byte, 1<<20)...)
		}
		return orlPGM(s, i)
	}))
	wantErr(t, err, "att_faces/s1/1.pgm", "more than a 92×112 PGM can hold")
}
