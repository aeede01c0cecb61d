package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testRecords covers every value kind: non-finite metrics and array entries,
// integral and fractional params, a missing metric, a failed cell, and a
// key and error that need quoting in CSV.
func testRecords() []Record {
	return []Record{
		{
			Key:     "method=mika,lambda=0.001",
			Seed:    18446744073709551615, // max uint64 survives JSON exactly
			Params:  map[string]any{"method": "mika", "lambda": 0.001, "q": 4, "centre": true},
			Metrics: map[string]float64{"mse": 0.012345678901234567, "snr": math.Inf(1), "tiny": 1e-7, "huge": 1e21},
			Arrays:  map[string][]float64{"x": {0, -0.5, math.NaN(), math.Inf(-1), 1.5e-9}},
			Status:  StatusOK,
		},
		{
			Key:     "method=kwok,lambda=0.01",
			Seed:    7,
			Params:  map[string]any{"method": "kwok", "lambda": 0.01, "q": 8},
			Metrics: map[string]float64{"mse": math.NaN()},
			Status:  StatusFailed,
			Error:   `singular matrix, "row 3"`,
		},
	}
}

// sameFloat reports whether a and b are equal, counting NaN equal to NaN.
func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestRecordJSONRoundTrip(t *testing.T) {
	for _, want := range testRecords() {
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatalf("marshal %q: %v", want.Key, err)
		}
		var got Record
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if got.Key != want.Key || got.Seed != want.Seed || got.Status != want.Status || got.Error != want.Error {
			t.Errorf("scalar fields: got %+v, want %+v", got, want)
		}
		if !reflect.DeepEqual(got.Params, want.Params) {
			t.Errorf("params: got %#v, want %#v", got.Params, want.Params)
		}
		if len(got.Metrics) != len(want.Metrics) {
			t.Errorf("metrics: got %v, want %v", got.Metrics, want.Metrics)
		}
		for k, v := range want.Metrics {
			if !sameFloat(got.Metrics[k], v) {
				t.Errorf("metric %s: got %v, want %v", k, got.Metrics[k], v)
			}
		}
		if len(got.Arrays) != len(want.Arrays) {
			t.Errorf("arrays: got %v, want %v", got.Arrays, want.Arrays)
		}
		for k, v := range want.Arrays {
			if len(got.Arrays[k]) != len(v) {
				t.Fatalf("array %s: got %v, want %v", k, got.Arrays[k], v)
			}
			for i := range v {
				if !sameFloat(got.Arrays[k][i], v[i]) {
					t.Errorf("array %s[%d]: got %v, want %v", k, i, got.Arrays[k][i], v[i])
				}
			}
		}
		// A second encoding is byte-identical to the first.
		b2, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if string(b2) != string(b) {
			t.Errorf("re-encoding differs:\n%s\n%s", b, b2)
		}
	}
}

func TestRecordJSONNonFiniteForm(t *testing.T) {
	b, err := json.Marshal(Record{Metrics: map[string]float64{"a": math.NaN(), "b": math.Inf(1), "c": math.Inf(-1)}})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"key":"","seed":0,"params":{},"metrics":{"a":"NaN","b":"+Inf","c":"-Inf"},"status":""}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestRecordJSONRejectsNonFiniteParam(t *testing.T) {
	_, err := json.Marshal(Record{Key: "k", Params: map[string]any{"lambda": math.NaN()}})
	if err == nil || !strings.Contains(err.Error(), "lambda") {
		t.Errorf("err = %v, want an error naming the param", err)
	}
}

func TestRecordJSONRejectsBadFloatString(t *testing.T) {
	var r Record
	if err := json.Unmarshal([]byte(`{"metrics":{"a":"nan?"}}`), &r); err == nil {
		t.Error("no error for an invalid float string")
	}
}

// TestAppendJSONFloatMatchesEncodingJSON checks that finite floats are
// written exactly as encoding/json writes them, on seeded random values
// spanning the 'f'/'e' format switch points (1e-6 and 1e21) and on the
// boundaries themselves.
func TestAppendJSONFloatMatchesEncodingJSON(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.999999e-7, 1e-7, 1e20, 1e21, 123456789e13,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 1.0000000000000002}
	rnd := rand.New(rand.NewPCG(1, 1))
	for range 10000 {
		v := math.Pow(10, rnd.Float64()*60-30) * (rnd.Float64() - 0.5)
		vals = append(vals, v)
	}
	for _, v := range vals {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONFloat(nil, v); string(got) != string(want) {
			t.Errorf("appendJSONFloat(%v) = %s, want %s", v, got, want)
		}
	}
}

func TestJSONLFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	recs := testRecords()
	if err := WriteJSONL(path, recs); err != nil {
		t.Fatal(err)
	}
	b1, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "records.jsonl.golden", b1)

	got, err := ReadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d records, want %d", len(got), len(recs))
	}
	// Read then write reproduces the file byte for byte (resume relies on it).
	path2 := filepath.Join(dir, "again.jsonl")
	if err := WriteJSONL(path2, got); err != nil {
		t.Fatal(err)
	}
	b2, err := os.ReadFile(path2)
	if err != nil {
		t.Fatal(err)
	}
	if string(b1) != string(b2) {
		t.Errorf("rewritten JSONL differs:\n%s\n%s", b1, b2)
	}
}

func TestReadJSONLBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	content := `{"key":"a","seed":1,"params":{},"metrics":{},"status":"ok"}

{"key":"b","seed":
`
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadJSONL(path)
	if err == nil {
		t.Fatal("no error for a truncated line")
	}
	if want := path + ":3:"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %q", err, want)
	}
}

func TestReadJSONLNoTrailingNewline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(`{"key":"a","status":"ok"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Key != "a" {
		t.Errorf("got %+v", recs)
	}
}

func TestWriteCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.csv")
	if err := WriteCSV(path, testRecords()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "records.csv.golden", b)
}
