package datasets

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// scene15JPEG is a w×w JPEG of class c: a grey ramp whose slope depends
// on c and v, or, with rgb, the same ramp in the red channel over a
// constant green and blue (decoded through the YCbCr branch).
func scene15JPEG(t *testing.T, c, v int, rgb bool) []byte {
	t.Helper()
	const w = 16
	var img image.Image
	if rgb {
		m := image.NewRGBA(image.Rect(0, 0, w, w))
		for y := range w {
			for x := range w {
				m.SetRGBA(x, y, color.RGBA{uint8((x*(c+1) + y*(v+1)) * 3 % 256), 90, 160, 255})
			}
		}
		img = m
	} else {
		m := image.NewGray(image.Rect(0, 0, w, w))
		for y := range w {
			for x := range w {
				m.SetGray(x, y, color.Gray{uint8((x*(c+1) + y*(v+1)) * 5 % 256)})
			}
		}
		img = m
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// scene15Files is a Scene-15 tree with one image per class in train/
// under the folder name of our copy's train part (capitalised), and two
// more for bedroom: one in test/ named after the train one (test sorts
// first) and one RGB.
func scene15Files(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for c, name := range Scene15Classes {
		folder := string(name[0]-'a'+'A') + name[1:]
		files[fmt.Sprintf("%s/train/%s/image_0001.jpg", Scene15Dir, folder)] = scene15JPEG(t, c, 0, false)
	}
	files[Scene15Dir+"/test/bedroom/image_0002.jpg"] = scene15JPEG(t, 0, 1, false)
	files[Scene15Dir+"/train/Bedroom/image_0003.jpg"] = scene15JPEG(t, 0, 2, true)
	return files
}

// smallGIST is a GIST small enough for a 16-pixel image: 2 scales of 2
// orientations on a 2×2 grid, 16 numbers.
var smallGIST = GISTOptions{ImageSize: 16, Orientations: []int{2, 2}, Blocks: 2, BoundaryExtension: 4}

// TestLoadScene15GIST checks the loader on a built tree: images in
// ListScene15's order (class, then test before train, then name), each
// row the GIST descriptor of that file decoded alone, labels the class
// indices, the class names a copy, and the same bits whatever the number
// of workers.
func TestLoadScene15GIST(t *testing.T) {
	files := scene15Files(t)
	r := mustOpen(t, writeRoot(t, files))
	set, imgs, err := LoadScene15GIST(r, smallGIST, 1)
	if err != nil {
		t.Fatal(err)
	}
	wantPaths := []string{
		Scene15Dir + "/test/bedroom/image_0002.jpg",
		Scene15Dir + "/train/Bedroom/image_0001.jpg",
		Scene15Dir + "/train/Bedroom/image_0003.jpg",
		Scene15Dir + "/train/Coast/image_0001.jpg",
	}
	if len(imgs) != 17 {
		t.Fatalf("%d images, want 15 classes + 2", len(imgs))
	}
	for i, p := range wantPaths {
		if imgs[i].Path != p {
			t.Errorf("image %d is %s, want %s", i, imgs[i].Path, p)
		}
	}
	if imgs[0].Part != "test" || imgs[1].Part != "train" {
		t.Errorf("parts %s, %s; want test, train", imgs[0].Part, imgs[1].Part)
	}
	g, err := NewGIST(smallGIST)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := set.X.Dims(); r != 17 || c != g.Len() || c != 16 {
		t.Fatalf("X is %d×%d, want 17×16 (2·2 filters on a 2×2 grid)", r, c)
	}
	for i, im := range imgs {
		if set.Labels[i] != im.Class || im.Class != max(0, i-2) {
			t.Errorf("image %d (%s): label %d, class %d; want %d", i, im.Path, set.Labels[i], im.Class, max(0, i-2))
		}
		gray, err := DecodeJPEGGray(im.Path, files[im.Path])
		if err != nil {
			t.Fatal(err)
		}
		want, err := g.Descriptor(gray)
		if err != nil {
			t.Fatal(err)
		}
		if got := set.X.RawRowView(i); !slices.Equal(got, want) {
			t.Errorf("row %d (%s) is %v, want its descriptor %v", i, im.Path, got, want)
		}
	}
	if set.Name != "scene15" || !slices.Equal(set.LabelNames, Scene15Classes) {
		t.Errorf("set %q with classes %q", set.Name, set.LabelNames)
	}
	set.LabelNames[0] = "changed"
	if Scene15Classes[0] != "bedroom" {
		t.Fatal("the set's class names are Scene15Classes itself")
	}

	par, _, err := LoadScene15GIST(r, smallGIST, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 17 {
		for j, v := range set.X.RawRowView(i) {
			if math.Float64bits(v) != math.Float64bits(par.X.At(i, j)) {
				t.Fatalf("element (%d,%d): %v with one worker, %v with three", i, j, v, par.X.At(i, j))
			}
		}
	}
}

// TestDecodeJPEGGrayColour checks the grey level of a colour JPEG: the
// mean of R, G and B (LMgist.m's mean(img, 3)). A flat colour survives
// JPEG within a few levels; (200, 90, 160) has mean 150/255 = 0.588.
func TestDecodeJPEGGrayColour(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range 64 {
		m.SetRGBA(i%8, i/8, color.RGBA{200, 90, 160, 255})
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	g, err := DecodeJPEGGray("flat.jpg", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// 2/255: JPEG's colour conversion rounds each channel.
	for i, v := range g.Pix {
		if math.Abs(v-150.0/255) > 2.0/255 {
			t.Fatalf("pixel %d is %v, want 150/255 = %v", i, v, 150.0/255)
		}
	}
}

// TestLoadScene15GISTRefusals checks what stops the loader, by the file
// and the reason: a JPEG that does not decode (its checksum right), a
// file changed after its checksum was taken, GIST options no image fits,
// no data root, and the listing's refusals (a path of another shape, a
// folder of no class, a class without images, nothing listed).
func TestLoadScene15GISTRefusals(t *testing.T) {
	broken := scene15Files(t)
	broken[Scene15Dir+"/train/Coast/image_0001.jpg"] = []byte("not a jpeg")
	dir := writeRoot(t, broken)
	_, _, err := LoadScene15GIST(mustOpen(t, dir), smallGIST, 2)
	wantErr(t, err, "datasets: "+filepath.Join(dir, Scene15Dir, "train", "Coast", "image_0001.jpg")+": not a readable JPEG: ", "PROVENANCE.md")

	dir = writeRoot(t, scene15Files(t))
	changed := filepath.Join(dir, Scene15Dir, "train", "Forest", "image_0001.jpg")
	if err := os.WriteFile(changed, scene15JPEG(t, 9, 9, false), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadScene15GIST(mustOpen(t, dir), smallGIST, 2)
	wantErr(t, err, "checksum mismatch for", "Forest/image_0001.jpg")

	_, _, err = LoadScene15GIST(mustOpen(t, writeRoot(t, scene15Files(t))), GISTOptions{ImageSize: 4}, 1)
	wantErr(t, err, "datasets: GIST options", "are impossible")

	_, _, err = LoadScene15GIST(nil, smallGIST, 1)
	wantErr(t, err, "datasets: reading scene15/data: no data root; pass --data DIR or set "+EnvDataRoot)

	for _, tc := range []struct {
		name string
		edit func(files map[string][]byte)
		want []string
	}{
		{"a file beside the parts", func(f map[string][]byte) { f[Scene15Dir+"/README.jpg"] = []byte("x") },
			[]string{"scene15/data/README.jpg is not scene15/data/{train,test}/<class>/<name>.jpg"}},
		{"not a JPEG name", func(f map[string][]byte) { f[Scene15Dir+"/train/Coast/notes.txt"] = []byte("x") },
			[]string{"scene15/data/train/Coast/notes.txt is not"}},
		{"a third part", func(f map[string][]byte) { f[Scene15Dir+"/val/coast/a.jpg"] = []byte("x") },
			[]string{"scene15/data/val/coast/a.jpg is not"}},
		{"no such class", func(f map[string][]byte) { f[Scene15Dir+"/train/Beach/a.jpg"] = []byte("x") },
			[]string{`folder "Beach" is none of the 15 Scene-15 classes (bedroom, coast,`}},
		{"a class without images", func(f map[string][]byte) { delete(f, Scene15Dir+"/train/Suburb/image_0001.jpg") },
			[]string{"lists no images of class suburb under ./scene15/data/"}},
		{"nothing listed", func(f map[string][]byte) { clear(f); f["other/x"] = []byte("x") },
			[]string{"lists no files under ./scene15/data/; get Scene-15 as described in PROVENANCE.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := scene15Files(t)
			tc.edit(files)
			_, err := ListScene15(mustOpen(t, writeRoot(t, files)))
			wantErr(t, err, tc.want...)
		})
	}
}
