package datasets

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCSVRoundTrip(t *testing.T) {
	// Values chosen to break a lossy format: non-terminating binary
	// fractions, extremes, a subnormal and a negative zero.
	m := mat.NewDense(3, 4, []float64{
		0.1, 1.0 / 3, -2.5e17, math.Copysign(0, -1),
		math.MaxFloat64, math.SmallestNonzeroFloat64, -1e-300, 42,
		math.Pi, -math.E, 1e21, 123456789.123456789,
	})
	path := filepath.Join(t.TempDir(), "m.csv")
	if err := WriteCSVMatrix(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSVMatrix(path)
	if err != nil {
		t.Fatal(err)
	}
	r, c := got.Dims()
	if r != 3 || c != 4 {
		t.Fatalf("read back %d×%d, want 3×4", r, c)
	}
	// Exact, bit for bit: strconv documents that 'g' with precision -1 is
	// the shortest representation that ParseFloat returns unchanged.
	for i := range 3 {
		for j := range 4 {
			if a, b := got.At(i, j), m.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("(%d,%d): read %v, wrote %v", i, j, a, b)
			}
		}
	}

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "0.1,0.3333333333333333,-2.5e+17,-0\n" +
		"1.7976931348623157e+308,5e-324,-1e-300,42\n" +
		"3.141592653589793,-2.718281828459045,1e+21,1.2345678912345679e+08\n"
	if string(b) != want {
		t.Errorf("file is\n%s\nwant\n%s", b, want)
	}

	// Overwriting replaces the file and leaves no temporary behind.
	if err := WriteCSVMatrix(path, mat.NewDense(1, 1, []float64{7})); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after two writes, want 1", len(entries))
	}
	if b, _ := os.ReadFile(path); string(b) != "7\n" {
		t.Errorf("after overwrite the file is %q, want %q", b, "7\n")
	}
}

func TestWriteCSVMatrixNonFinite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(path, []byte("1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteCSVMatrix(path, mat.NewDense(1, 2, []float64{1, math.NaN()}))
	wantErr(t, err, path, "(0, 1)", "NaN")
	if b, _ := os.ReadFile(path); string(b) != "1,2\n" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after a failed write, want 1", len(entries))
	}

	err = WriteCSVMatrix(filepath.Join(dir, "no", "such", "dir.csv"), mat.NewDense(1, 1, nil))
	wantErr(t, err, filepath.Join(dir, "no", "such", "dir.csv"))
}

func TestReadCSVMatrix(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       *mat.Dense
	}{
		{"plain", "1,2\n3,4\n", mat.NewDense(2, 2, []float64{1, 2, 3, 4})},
		{"header", "x,y\n1,2\n3,4\n", mat.NewDense(2, 2, []float64{1, 2, 3, 4})},
		{"quoted header", "\"pixel 1\",\"pixel 2\"\n1,2\n", mat.NewDense(1, 2, []float64{1, 2})},
		{"blank lines and spaces", "\nx, y\n\n 1 , 2 \n   \n3,4", mat.NewDense(2, 2, []float64{1, 2, 3, 4})},
		{"CRLF", "a,b\r\n1,2\r\n3,4\r\n", mat.NewDense(2, 2, []float64{1, 2, 3, 4})},
		{"exponents", "1e-3,-2E+2,.5\n", mat.NewDense(1, 3, []float64{1e-3, -2e2, 0.5})},
		{"one column", "v\n1\n2\n3\n", mat.NewDense(3, 1, []float64{1, 2, 3})},
	} {
		path := filepath.Join(t.TempDir(), "in.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCSVMatrix(path)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		// Exact: every value is a short decimal parsed by ParseFloat.
		if !mat.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, mat.Formatted(got), mat.Formatted(c.want))
		}
	}
}

func TestReadCSVMatrixErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"ragged", "x,y\n1,2\n\n3,4,5\n", []string{":4:", "3 fields", "has 2"}},
		{"short row", "1,2,3\n4,5\n", []string{":2:", "2 fields"}},
		{"text", "1,2\n3,abc\n", []string{":2:", "field 2", `"abc"`}},
		{"empty field", "1,2\n3,\n", []string{":2:", "field 2"}},
		{"NaN", "1,2\nNaN,4\n", []string{":2:", "field 1", "not finite"}},
		{"Inf", "1,2\n3,-Inf\n", []string{":2:", "not finite"}},
		// A first line with some numbers is data, so its typo is reported
		// rather than the line being dropped as a header.
		{"typo on line 1", "1,x,3\n4,5,6\n", []string{":1:", `"x"`}},
		{"header only", "a,b\n", []string{"no data rows"}},
		{"empty", "", []string{"no data rows"}},
		{"bad quote", "1,2\n3,4\"\n", []string{"line 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.csv")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadCSVMatrix(path)
			wantErr(t, err, append([]string{path}, c.want...)...)
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.csv")
	_, err := ReadCSVMatrix(missing)
	wantErr(t, err, missing, "not found")
}
