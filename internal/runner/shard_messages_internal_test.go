package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// TestExternalChanged names every external estimator whose fingerprint
// moved (changed, removed or added), sorted and quoted, with the --with
// SPEC that added it unless that config skipped it.
func TestExternalChanged(t *testing.T) {
	with := []report.WithSpec{
		{Spec: "pyimpute:k=3", Label: "py"},
		{Spec: "octave", Label: "oct", Skipped: "kind X lists no estimators"},
	}
	for _, c := range []struct {
		name     string
		was, now map[string]string
		want     string
	}{
		{"none", map[string]string{"py": "a"}, map[string]string{"py": "a"}, ""},
		{"both nil", nil, nil, ""},
		{"changed", map[string]string{"py": "a", "z": "1"}, map[string]string{"py": "b", "z": "1"}, `"py" (--with "pyimpute:k=3")`},
		{"removed and added, sorted", map[string]string{"zeta": "1"}, map[string]string{"alpha": "2"}, `"alpha", "zeta"`},
		{"skipped has no spec", map[string]string{"oct": "1"}, map[string]string{"oct": "2"}, `"oct"`},
	} {
		if got := externalChanged(c.was, c.now, with); got != c.want {
			t.Errorf("%s: externalChanged = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCodeChanged: the merge's refusal of shards of other code says which
// part changed — the build, an external script, or both — and a shard
// without the split fingerprint can only be told "another build".
func TestCodeChanged(t *testing.T) {
	fp := PlanFingerprint{Code: "c-now-0123456789", Build: "b-now", External: map[string]string{"py": "new"}}
	for _, c := range []struct {
		name string
		p    shardProvenance
		want string
	}{
		{"old shard", shardProvenance{Code: "c-old-0123456789"},
			"the shards in DIR were computed by another build of runexp (code fingerprint c-old-012345, this one c-now-012345); merge with the binary that ran them, or rerun the shards"},
		{"build only", shardProvenance{Code: "c-old-0123456789", Build: "b-old", External: map[string]string{"py": "new"}},
			"the shards in DIR were computed by another build of runexp (code fingerprint c-old-012345, this one c-now-012345)"},
		{"script only", shardProvenance{Code: "c-old", Build: "b-now", External: map[string]string{"py": "old"}},
			`the shards in DIR cannot be merged: the external estimator "py" changed its command or script since the shards ran; restore the script they ran, or rerun the shards`},
		{"both", shardProvenance{Code: "c-old", Build: "b-old", External: map[string]string{"py": "old"}},
			`the shards in DIR were computed by another build of runexp, and the external estimator "py" changed its command or script since the shards ran; rerun the shards`},
	} {
		err := codeChanged("DIR", &c.p, fp)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TestAgree: two shards of one run agree; a different config, --with set
// or code is refused naming both shards, and a code difference that is an
// external script's alone says so.
func TestAgree(t *testing.T) {
	first := &shardProvenance{Config: "a.yaml", ConfigSHA256: "aaaaaaaaaaaaaaaa", Code: "c1", Build: "b1",
		External: map[string]string{"py": "1"}, With: []report.WithSpec{{Spec: "py", Label: "py", Params: map[string]any{"k": 3}}}}
	same := *first
	// Params read back from a provenance file are float64: still the same --with.
	same.With = []report.WithSpec{{Spec: "py", Label: "py", Params: map[string]any{"k": 3.0}}}
	if err := agree("s1", first, "s2", &same, "DIR"); err != nil {
		t.Errorf("agreeing shards refused: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(p *shardProvenance)
		want string
	}{
		{"config", func(p *shardProvenance) { p.Config, p.ConfigSHA256 = "b.yaml", "bbbbbbbbbbbbbbbb" },
			"shards disagree on the config: s1 ran a.yaml (SHA-256 aaaaaaaaaaaa), s2 ran b.yaml (SHA-256 bbbbbbbbbbbb); rerun the shards of one config (remove DIR)"},
		{"with", func(p *shardProvenance) { p.With = nil },
			`shards disagree on the added estimators: s1 was run with --with "py", s2 with no --with; rerun the shards with one set of --with (remove DIR)`},
		{"build", func(p *shardProvenance) { p.Code, p.Build = "c2", "b2" },
			"shards disagree on the code: s1 and s2 were computed by different builds of runexp; rerun them with one build"},
		{"script", func(p *shardProvenance) { p.Code, p.External = "c2", map[string]string{"py": "2"} },
			`shards disagree on the code: s1 and s2 ran different versions of the external estimator "py" (--with "py") (its command or script changed between them); rerun them with one version`},
	} {
		p := *first
		c.edit(&p)
		err := agree("s1", first, "s2", &p, "DIR")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TestCheckMergedData: a file the shards read with another checksum than
// the data root has now is refused; files only one side read are not.
func TestCheckMergedData(t *testing.T) {
	now := []report.FileSum{{Path: "usps/zip.train.gz", SHA256: "111111111111aaaa"}, {Path: "b", SHA256: "2"}}
	if err := checkMergedData([]report.FileSum{{Path: "usps/zip.train.gz", SHA256: "111111111111aaaa"}, {Path: "other", SHA256: "9"}}, now); err != nil {
		t.Errorf("same data refused: %v", err)
	}
	err := checkMergedData([]report.FileSum{{Path: "usps/zip.train.gz", SHA256: "333333333333bbbb"}}, now)
	want := "the shards read usps/zip.train.gz with SHA-256 333333333333, the data root now has 111111111111; rerun the shards on this data"
	if err == nil || err.Error() != want {
		t.Errorf("changed data: %v, want %s", err, want)
	}
}

// TestReadProvenanceRefusals: a shard's provenance missing, not of the
// shard format, or describing other records is refused with the fix.
func TestReadProvenanceRefusals(t *testing.T) {
	dir := t.TempDir()
	recs := filepath.Join(dir, "shard-1-of-2.jsonl")
	if err := os.WriteFile(recs, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := recordsSum(recs)
	if err != nil || len(sum) != 64 {
		t.Fatalf("recordsSum = %q, %v", sum, err)
	}
	_, err = readProvenance(recs)
	if err == nil || !strings.Contains(err.Error(), "shard-1-of-2.jsonl has no provenance (shard-1-of-2.provenance.json)") {
		t.Errorf("no provenance: %v", err)
	}
	for _, c := range []struct{ body, want string }{
		{`{"format": "something-else"}`, "is not a " + shardFormat + " provenance file"},
		{`not json`, "is not a " + shardFormat + " provenance file"},
		{`{"format": "` + shardFormat + `", "records_sha256": "00"}`, "does not hold the records its provenance describes"},
	} {
		if err := os.WriteFile(provenanceFile(recs), []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readProvenance(recs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	good := `{"format": "` + shardFormat + `", "records_sha256": "` + sum + `", "config": "a.yaml"}`
	if err := os.WriteFile(provenanceFile(recs), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := readProvenance(recs); err != nil || p.Config != "a.yaml" {
		t.Errorf("good provenance: %+v, %v", p, err)
	}
}
