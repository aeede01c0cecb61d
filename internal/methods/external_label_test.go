package methods

import (
	"os"
	"testing"
)

// TestExternalLabel: an external estimator added without a label is named
// after its script and its own parameters, as benchopt names a run.
func TestExternalLabel(t *testing.T) {
	for _, c := range []struct{ command, params, want string }{
		{"python3 knn_input.py", `{"k": 3}`, "knn_input[k=3]"},
		{"python3 /x/y/knn_input.py --alpha 0.01", `{"k": 3, "mode": "fast"}`, "knn_input[k=3,mode=fast]"},
		{"python3 knn_input.py", "", "knn_input"},
		{"/usr/local/bin/my-estimator --fast", "{}", "my-estimator"},
		{"Rscript est.R", `{"lambda": 0.5}`, "est[lambda=0.5]"},
		{"'unterminated", "", "external"},
	} {
		if got := ExternalLabel(c.command, c.params); got != c.want {
			t.Errorf("ExternalLabel(%q, %q) = %q, want %q", c.command, c.params, got, c.want)
		}
	}
}

// TestReadRanParams: params.json is an object of parameters (numbers as
// float64, lists kept as their JSON text); anything else fails the batch,
// and no file is no report.
func TestReadRanParams(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/params.json"
	if m, err := readRanParams(p); m != nil || err != nil {
		t.Fatalf("no file: %v, %v", m, err)
	}
	if err := writeFile(p, `{"k": 5, "mode": "fast", "on": true, "w": [1, 2]}`); err != nil {
		t.Fatal(err)
	}
	m, err := readRanParams(p)
	if err != nil || m["k"] != 5.0 || m["mode"] != "fast" || m["on"] != true || m["w"] != "[1,2]" {
		t.Errorf("read %v, %v", m, err)
	}
	if err := writeFile(p, `[1, 2]`); err != nil {
		t.Fatal(err)
	}
	if _, err := readRanParams(p); err == nil {
		t.Error("a list read as parameters")
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }
