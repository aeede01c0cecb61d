package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/suite"
)

const arrayJobsDoc = "../../docs/array-jobs.md"

// docBlocks returns the fenced blocks of language lang in the section of
// doc under heading (up to the next heading of the same level).
func docBlocks(t *testing.T, doc, heading, lang string) []string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	level := heading[:strings.IndexByte(heading, ' ')+1]
	var blocks []string
	in, fenced := false, false
	var cur []string
	for _, l := range lines {
		switch {
		case !fenced && l == heading:
			in = true
			continue
		case in && !fenced && strings.HasPrefix(l, level):
			in = false
		}
		if !in {
			continue
		}
		switch {
		case !fenced && l == "```"+lang:
			fenced, cur = true, nil
		case fenced && l == "```":
			fenced = false
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		case fenced:
			cur = append(cur, l)
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("%s: no ```%s block under %q", doc, lang, heading)
	}
	return blocks
}

// TestKubernetesRecipe checks what can be checked of the Indexed Job of
// docs/array-jobs.md without a cluster: it is a batch/v1 Indexed Job
// whose completions, parallelism and --shard count agree, and it is YAML
// (yamllint, where installed). The doc says it was not run on a cluster.
func TestKubernetesRecipe(t *testing.T) {
	y := docBlocks(t, arrayJobsDoc, "## Kubernetes Indexed Job", "yaml")[0]
	for _, want := range []string{"apiVersion: batch/v1\n", "kind: Job\n", "completionMode: Indexed", "restartPolicy: OnFailure", `--shard "$JOB_COMPLETION_INDEX/`} {
		if !strings.Contains(y, want) {
			t.Errorf("the Indexed Job lacks %q", want)
		}
	}
	num := func(re string) int {
		m := regexp.MustCompile(re).FindStringSubmatch(y)
		if m == nil {
			t.Fatalf("the Indexed Job has no %s", re)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	c, p, s := num(`completions: (\d+)`), num(`parallelism: (\d+)`), num(`JOB_COMPLETION_INDEX/(\d+)"`)
	if c != s || p > c {
		t.Errorf("completions %d, parallelism %d, --shard i/%d: completions and the shard count must agree", c, p, s)
	}
	if strings.Contains(y, "\t") {
		t.Error("the Indexed Job has a tab: YAML indents with spaces")
	}
	lint, err := exec.LookPath("yamllint")
	if err != nil {
		t.Log("yamllint not installed: YAML syntax not checked")
		return
	}
	f := filepath.Join(t.TempDir(), "job.yaml")
	os.WriteFile(f, []byte(y), 0o644)
	// relaxed, without the line-length rule (the args are one folded
	// scalar).
	out, err := exec.Command(lint, "-d", "{extends: relaxed, rules: {line-length: disable}}", f).CombinedOutput()
	if err != nil {
		t.Errorf("yamllint: %v\n%s", err, out)
	}
}

// slurmSite is how the test departs from the doc's blocks: the table at
// the end of docs/array-jobs.md's Slurm sections says the same.
func slurmSite(block, out, data, only string) string {
	r := strings.NewReplacer(
		"--array=0-7 ", "--array=0-2 ", "--array=0-15 ", "--array=0-2 ",
		"--cpus-per-task=2\n", "--cpus-per-task=1\n", "--cpus-per-task=4\n", "--cpus-per-task=1\n",
		"--mem=8G\n", "--mem=2G\n", "--mem=16G\n", "--mem=2G\n",
		"/shared/results", out,
		"/shared/datasets/runexp", data,
		"--only '*'", "--only '"+only+"'",
	)
	return r.Replace(block)
}

// TestSlurmArrayJobs submits the Slurm blocks of docs/array-jobs.md, as
// written but for the site's paths and sizes (slurmSite), to the cluster
// of SLURM_CONF that make test-slurm starts (.ci/slurm.sh): a 3-task
// array of one config with the dependent merge, and a 3-task array of a
// quick suite subset with its merge. The merged outputs must be the bytes
// of a single run (manifest.json and suite.json, which hold times,
// aside), and the suite's merge must report no change against the
// baseline.
func TestSlurmArrayJobs(t *testing.T) {
	if os.Getenv("RUNEXP_SLURM") != "1" {
		t.Skip("make test-slurm runs it on a one-node cluster it starts (RUNEXP_SLURM=1)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// The folder the jobs are submitted from, laid out as the doc
	// expects: bin/runexp, configs/, baseline/, and ../shared for the
	// paper values the scoreboard reads.
	work := filepath.Join(tmp, "repo")
	os.MkdirAll(filepath.Join(work, "bin"), 0o755)
	for _, l := range []struct{ from, to string }{
		{filepath.Join(root, "configs"), filepath.Join(work, "configs")},
		{filepath.Join(root, "baseline"), filepath.Join(work, "baseline")},
		{filepath.Join(root, "..", "shared"), filepath.Join(tmp, "shared")},
	} {
		if err := os.Symlink(l.from, l.to); err != nil {
			t.Fatal(err)
		}
	}
	buildRunexp(t, root, filepath.Join(work, "bin", "runexp"))
	data := os.Getenv("RUNEXP_DATA")
	only := "abrahamsen-hansen-fig2,abrahamsen-hansen-fig3"
	if data != "" {
		only += ",huang-fig5"
	}

	// The single run writes to the results folder first and is moved
	// aside, so that the pages, which name the folder, can be compared;
	// the array then starts with an empty folder and cache.
	single := func(out, ref string, args ...string) {
		t.Helper()
		inWork(t, work, append([]string{"./bin/runexp"}, args...)...)
		if err := os.Rename(out, ref); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("config", func(t *testing.T) {
		out, ref := filepath.Join(tmp, "results-config"), filepath.Join(tmp, "ref-config")
		const cfg = "abrahamsen-hansen-fig2"
		single(out, ref, "--out", out, "-q", "-j", "2", "configs/"+cfg+".yaml")
		blocks := docBlocks(t, arrayJobsDoc, "## Slurm job array", "sh")
		if len(blocks) < 2 {
			t.Fatalf("want the sbatch script and the submission, got %d blocks", len(blocks))
		}
		runArray(t, work, "shard.sbatch", slurmSite(blocks[0], out, data, only), slurmSite(blocks[1], out, data, only))
		if n := countShards(t, filepath.Join(out, cfg, "shards")); n < 3 {
			t.Errorf("%d shard files, want one per task (3)", n)
		}
		sameTree(t, filepath.Join(ref, cfg), filepath.Join(out, cfg))
	})

	t.Run("suite", func(t *testing.T) {
		out, ref := filepath.Join(tmp, "results-suite"), filepath.Join(tmp, "ref-suite")
		single(out, ref, "suite", "--only", only, "--out", out, "-q", "-j", "2", "--baseline", "baseline")
		blocks := docBlocks(t, arrayJobsDoc, "## The whole suite as one Slurm array", "sh")
		if len(blocks) < 2 {
			t.Fatalf("want the sbatch script and the submission, got %d blocks", len(blocks))
		}
		log := runArray(t, work, "suite.sbatch", slurmSite(blocks[0], out, data, only), slurmSite(blocks[1], out, data, only))
		if !strings.Contains(log, "No changes.") {
			t.Errorf("the merge did not compare with the baseline, or something moved:\n%s", log)
		}
		if n := countShards(t, filepath.Join(out, ".shards")); n < 3 {
			t.Errorf("%d suite shard reports, want one per task (3)", n)
		}
		sameTree(t, ref, out)
	})
}

// runArray writes script as name in work and runs the submission block
// there, which prints the merge job's id; it waits for the merge and
// returns its log. It fails if the merge did not complete with exit 0.
func runArray(t *testing.T, work, name, script, submit string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(work, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:\n%s\nsubmitted with:\n%s", name, script, submit)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", submit)
	cmd.Dir = work
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("submitting: %v %s", err, b)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		t.Fatal("the submission printed no job id")
	}
	id := f[len(f)-1]
	state := waitJob(t, id, 10*time.Minute)
	logs, _ := filepath.Glob(filepath.Join(work, "logs", "*"))
	var all bytes.Buffer
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		fmt.Fprintf(&all, "== %s\n%s", filepath.Base(l), b)
	}
	merge, _ := filepath.Glob(filepath.Join(work, "logs", "*-merge.log"))
	var mlog []byte
	if len(merge) > 0 {
		mlog, _ = os.ReadFile(merge[0])
	}
	if state != "COMPLETED 0:0" {
		t.Fatalf("merge job %s: %s\n%s", id, state, all.String())
	}
	for _, l := range logs {
		os.Remove(l)
	}
	return string(mlog)
}

// waitJob polls the job until it ends and returns its state and exit
// code ("COMPLETED 0:0"). A merge whose dependency can never be satisfied
// (a task failed) ends the wait too.
func waitJob(t *testing.T, id string, limit time.Duration) string {
	t.Helper()
	re := regexp.MustCompile(`JobState=(\S+) Reason=(\S+).*ExitCode=(\S+)`)
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		out, err := exec.Command("scontrol", "show", "job", "-o", id).CombinedOutput()
		if err != nil {
			t.Fatalf("scontrol show job %s: %v %s", id, err, out)
		}
		m := re.FindStringSubmatch(string(out))
		if m == nil {
			t.Fatalf("scontrol: %s", out)
		}
		switch m[1] {
		case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING":
			if m[2] == "DependencyNeverSatisfied" {
				exec.Command("scancel", id).Run()
				return "never ran: a task of the array failed"
			}
			time.Sleep(time.Second)
			continue
		}
		return m[1] + " " + m[3]
	}
	exec.Command("scancel", id).Run()
	t.Fatalf("job %s still running after %v", id, limit)
	return ""
}

func countShards(t *testing.T, dir string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".jsonl") || strings.HasPrefix(filepath.Base(f), "suite-") {
			n++
		}
	}
	return n
}

func inWork(t *testing.T, work string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// sameTree fails on every file suite.DiffTrees finds.
func sameTree(t *testing.T, ref, got string) {
	t.Helper()
	diff, err := suite.DiffTrees(ref, got)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range diff {
		t.Errorf("%s differs between the single run and the array's merge", f)
	}
}
