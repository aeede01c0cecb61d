package methods

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/safefs"
)

// External runs an estimator written in any language as a separate process,
// once per batch, through files: the protocol of docs/external-estimators.md.
//
// For each batch it creates a fresh temporary directory, writes the problem
// into it as NumPy .npy files (float64, C order) with a JSON manifest,
// manifest.json, and runs Command with the directory appended as the last
// argument (and in the environment as RUNEXP_ESTIMATOR_DIR). The working
// directory is runexp's own, so a relative script path in Command means
// what it means on the command line. The process writes the M×D result
// Z.npy into the directory and, optionally, status.json with one entry per
// row. The directory is removed afterwards, whatever happened.
//
// Every failure is an error of the batch that names its reason: a command
// that cannot start, a non-zero exit (with the tail of its standard error),
// a time-out (the whole process group is killed), a missing, unreadable,
// wrongly typed or wrongly shaped Z.npy, a malformed status.json. A row
// that is not finite, or that status.json marks failed, is that row's
// Status.Err. Nothing is ever taken from a partial result.
//
// External is both a PreImager (manifest capability "pre-image": Γ over
// the training inputs) and a Denoiser (capability "de-noise": the noisy
// inputs, their projection Γ on q components and their kernel values);
// Does restricts it to one of the two for a script that implements only
// one.
type External struct {
	// Command is the program and its arguments.
	Command []string
	// Timeout bounds one batch's run.
	Timeout time.Duration
	// Script names files whose contents the fingerprint covers, besides
	// every argument of Command ending in .py and the project modules
	// they import (ExternalFingerprint).
	Script string
	// Params are the estimator's own parameters, written to the
	// manifest's "params" object (the params parameter, a JSON object).
	Params map[string]any

	// report receives the parameters a batch's process reported it ran
	// with (ReportParams).
	report func(map[string]any)
	// loaded receives the files a batch's process reported it loaded
	// (ReportLoaded).
	loaded func([]string)
}

// ParamsReporter is an estimator that learns, as it runs, the values of
// the parameters it ran with: an external script reports its own
// parameters, the defaults it used included, in params.json (see
// docs/external-estimators.md, "Parameters that ran"). The runner hands
// it a function that receives them, once per batch, and writes them into
// the cell's record (report.Record.Ran).
type ParamsReporter interface {
	ReportParams(func(map[string]any))
}

// ReportParams sets the function that receives the parameters each
// batch's process reports it ran with.
func (e *External) ReportParams(f func(map[string]any)) { e.report = f }

// LoadReporter is an estimator that learns, as it runs, which files its
// computation loaded: an external Python estimator's process lists the
// modules it imported, however it imported them (docs/external-
// estimators.md, "Modules that ran"). The runner hands it a function that
// receives them, once per batch, and keys the cell's cache entry by their
// contents (report.Record.Loaded).
type LoadReporter interface {
	ReportLoaded(func([]string))
}

// ReportLoaded sets the function that receives the files each batch's
// process reports it loaded.
func (e *External) ReportLoaded(f func([]string)) { e.loaded = f }

func (x externalPreImager) ReportLoaded(f func([]string)) { x.e.ReportLoaded(f) }
func (x externalDenoiser) ReportLoaded(f func([]string))  { x.e.ReportLoaded(f) }

func (x externalPreImager) ReportParams(f func(map[string]any)) { x.e.ReportParams(f) }
func (x externalDenoiser) ReportParams(f func(map[string]any))  { x.e.ReportParams(f) }

// Protocol is the version of the external estimator protocol written in
// every manifest.
const Protocol = 1

// externalStderrTail is how much of the process's standard error a failure
// quotes.
const externalStderrTail = 2000

var (
	_ PreImager = (*External)(nil)
	_ Denoiser  = (*External)(nil)
)

func init() {
	Register(Spec{
		Name:  "external",
		Title: "External",
		Doc:   "runs an estimator in any language as a process, through .npy files and a JSON manifest (docs/external-estimators.md)",
		Source: "runexp's external estimator protocol, version 1 " +
			"(docs/external-estimators.md; python/runexp_estimator.py reads and writes it)",
		Does:    PreImages | Denoises,
		Kernels: AnyKernel,
		Params: []Param{
			StringParam("command", "", nil, "the command line, split on white space with single and double quotes grouping (no shell); the problem's directory is appended as the last argument"),
			StringParam("timeout", "10m", nil, "time limit of one batch, a Go duration (90s, 10m); the process group is killed when it runs out"),
			StringParam("script", "", nil, "files the cache fingerprint covers besides the command's .py arguments and the project modules they import (a MATLAB or shell script, a module imported by a computed name), separated by white space, quoted as in command"),
			StringParam("does", "both", []string{"both", "pre-image", "de-noise"}, "which protocol capability the command implements: a pre-image or de-noise script is built as only a PreImager or only a Denoiser"),
			StringParam("params", "", nil, `the estimator's own parameters as a JSON object ({"k": 5, "alpha": 0.01}), written to every batch's manifest.json as "params" (the helper's p.params); "" for none`),
		},
		New: newExternal,
	})
}

// externalPreImager and externalDenoiser hide the other interface, for a
// command that implements only one capability.
type externalPreImager struct{ e *External }
type externalDenoiser struct{ e *External }

func (x externalPreImager) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	return x.e.PreImage(dst, p)
}

func (x externalDenoiser) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	return x.e.Denoise(dst, in)
}

func newExternal(p Params) (any, error) {
	cmd, err := SplitCommand(p.String("command"))
	if err != nil {
		return nil, &ParamError{"command", err.Error()}
	}
	timeout, err := time.ParseDuration(p.String("timeout"))
	if err != nil {
		return nil, &ParamError{"timeout", err.Error()}
	}
	if timeout <= 0 {
		return nil, &ParamError{"timeout", fmt.Sprintf("%v is not a positive duration", timeout)}
	}
	e := &External{Command: cmd, Timeout: timeout, Script: p.String("script"), Params: map[string]any{}}
	if raw := strings.TrimSpace(p.String("params")); raw != "" {
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&e.Params); err != nil || dec.More() {
			if err == nil {
				err = errors.New("text after the object")
			}
			return nil, &ParamError{"params", fmt.Sprintf("want a JSON object such as {\"k\": 5}, got %q: %v", raw, err)}
		}
		if e.Params == nil {
			return nil, &ParamError{"params", fmt.Sprintf("want a JSON object such as {\"k\": 5}, got %q", raw)}
		}
	}
	switch p.String("does") {
	case "pre-image":
		return externalPreImager{e}, nil
	case "de-noise":
		return externalDenoiser{e}, nil
	}
	return e, nil
}

// SplitCommand splits a command line into words: white space separates
// words, single quotes group literally, double quotes group with \" and \\
// as escapes, and a backslash outside quotes escapes the next character.
// There is no shell: no variables, globs or redirections.
func SplitCommand(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		inTok bool
		quote rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\'):
				i++
				cur.WriteRune(rs[i])
			default:
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inTok = r, true
		case r == '\\':
			if i+1 == len(rs) {
				return nil, errors.New("command ends with a lone backslash")
			}
			i++
			cur.WriteRune(rs[i])
			inTok = true
		case r == ' ' || r == '\t' || r == '\n':
			if inTok {
				words = append(words, cur.String())
				cur.Reset()
				inTok = false
			}
		default:
			cur.WriteRune(r)
			inTok = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote in command %q", quote, s)
	}
	if inTok {
		words = append(words, cur.String())
	}
	return words, nil
}

// MaxScriptBytes bounds a file ExternalFingerprint reads: a script is
// source, kilobytes; 16 MiB leaves room for a generated one.
const MaxScriptBytes = 16 << 20

// ExternalFingerprint returns a hex SHA-256 that changes whenever the
// external estimator bound in p would compute something else: its command
// line, the contents of every file it names as a script (each command
// argument ending in .py, and each file of the script parameter), and of
// every module of the project those Python scripts import, directly or
// not (external_imports.go says which). The runner's cell cache includes
// it in the key of a cell that runs an external estimator
// (runner.CellKey.MethodExternal), so that editing the script or a helper
// it imports recomputes. A file that cannot be read is an error, not a
// fingerprint without it.
func ExternalFingerprint(p Params) (string, error) {
	fp, _, err := ExternalFiles(p)
	return fp, err
}

// ExternalFiles is ExternalFingerprint with what it covers: each file by
// the name the fingerprint knows it under (a script as its command or
// script parameter names it; an imported module as "import NAME") and
// its SHA-256, so that an explanation can name the files that changed
// between two fingerprints.
func ExternalFiles(p Params) (fp string, files map[string]string, err error) {
	cmd, err := SplitCommand(p.String("command"))
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "runexp external protocol %d\n", Protocol)
	enc, _ := json.Marshal(cmd)
	fmt.Fprintf(h, "command %s\n", enc)
	scripts, err := ExternalScripts(p)
	if err != nil {
		return "", nil, err
	}
	files = map[string]string{}
	imports := newPyImports()
	for _, f := range scripts {
		// Read as every file runexp reads: a regular file (a link to
		// /dev/zero or a named pipe is refused before it is opened),
		// of bounded size.
		b, err := safefs.ReadFile(f, MaxScriptBytes)
		if err != nil {
			return "", nil, fmt.Errorf("external: fingerprinting script: %w", err)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(h, "file %q %x\n", f, sum)
		files[f] = fmt.Sprintf("%x", sum)
		if strings.HasSuffix(f, ".py") {
			if err := imports.script(f); err != nil {
				return "", nil, err
			}
		}
	}
	for _, l := range imports.lines() {
		fmt.Fprintln(h, l)
	}
	for name, sum := range imports.sums {
		files["import "+name] = sum
	}
	return hex.EncodeToString(h.Sum(nil)), files, nil
}

// ExternalScripts returns the files the external estimator bound in p
// names as its scripts: each argument of its command ending in .py, then
// the files of its script parameter (split as a command line is, so that
// it may name several).
func ExternalScripts(p Params) ([]string, error) {
	cmd, err := SplitCommand(p.String("command"))
	if err != nil {
		return nil, err
	}
	var files []string
	for _, a := range cmd {
		if strings.HasSuffix(a, ".py") {
			files = append(files, a)
		}
	}
	more, err := SplitCommand(p.String("script"))
	if err != nil {
		return nil, &ParamError{"script", err.Error()}
	}
	return append(files, more...), nil
}

// Manifest is manifest.json, what the process reads first.
type Manifest struct {
	// Protocol is the protocol version, Protocol.
	Protocol int `json:"protocol"`
	// Capability is "pre-image" or "de-noise".
	Capability string `json:"capability"`
	// Kernel is the model's kernel in runexp's convention, or nil when
	// there is no model (an imputer's input).
	Kernel *ManifestKernel `json:"kernel"`
	// Seed is drawn from the cell's random stream (53 bits, exact in a
	// double), or nil when the caller gave none.
	Seed *uint64 `json:"seed"`
	// Q is the number of components of a de-noising batch, or nil.
	Q *int `json:"q"`
	// M, N and D are the batch size, the number of training inputs (0
	// without a model) and the input dimension.
	M int `json:"m"`
	N int `json:"n"`
	D int `json:"d"`
	// Inputs maps each array's name to its file and shape.
	Inputs map[string]ManifestArray `json:"inputs"`
	// Output and Status name the files the process writes; ParamsOut
	// the optional file in which it reports the parameters it ran with
	// (its defaults included), a JSON object.
	Output    string `json:"output"`
	Status    string `json:"status"`
	ParamsOut string `json:"params_out"`
	// ModulesOut names the optional file in which the process lists
	// the files it loaded (a JSON array of absolute paths; the Python
	// helper writes it from sys.modules).
	ModulesOut string `json:"modules_out"`
	// Params are the estimator's own parameters (the params parameter),
	// an empty object when none are given.
	Params map[string]any `json:"params"`
}

// ManifestKernel names a kernel. Name is "gaussian" (k = exp(−‖x−y‖²/c),
// with Gamma = 1/c), "linear", "polynomial" ((xᵀy + offset)^degree), or
// the kernel's description for any other (K.npy holds its values).
type ManifestKernel struct {
	Name   string   `json:"name"`
	C      *float64 `json:"c,omitempty"`
	Gamma  *float64 `json:"gamma,omitempty"`
	Degree *int     `json:"degree,omitempty"`
	Offset *float64 `json:"offset,omitempty"`
}

// ManifestArray is one input file.
type ManifestArray struct {
	File  string `json:"file"`
	Shape []int  `json:"shape"`
}

// ManifestRow is one entry of status.json: a failed row has a non-empty
// Error; Iterations and Converged are reported like Status's.
type ManifestRow struct {
	Error      string             `json:"error"`
	Iterations int                `json:"iterations"`
	Converged  *bool              `json:"converged"`
	Diag       map[string]float64 `json:"diag"`
}

func manifestKernel(k kernel.Kernel) *ManifestKernel {
	if k == nil {
		return nil
	}
	if c, ok := gaussianWidth(k); ok {
		g := 1 / c
		return &ManifestKernel{Name: "gaussian", C: &c, Gamma: &g}
	}
	switch k := k.(type) {
	case kernel.Linear:
		return &ManifestKernel{Name: "linear"}
	case kernel.Polynomial:
		d, o := k.Degree, k.Offset
		return &ManifestKernel{Name: "polynomial", Degree: &d, Offset: &o}
	}
	return &ManifestKernel{Name: k.String()}
}

// batch is one call's problem on its way to files.
type batch struct {
	manifest Manifest
	arrays   map[string]mat.Matrix
}

func newBatch(capability string, k kernel.Kernel, m, n, d int) *batch {
	return &batch{
		manifest: Manifest{
			Protocol: Protocol, Capability: capability, Kernel: manifestKernel(k),
			M: m, N: n, D: d, Inputs: map[string]ManifestArray{},
			Output: "Z.npy", Status: "status.json", ParamsOut: "params.json", ModulesOut: "modules.json",
		},
		arrays: map[string]mat.Matrix{},
	}
}

func (b *batch) add(name string, a mat.Matrix) {
	if a == nil {
		return
	}
	if d, ok := a.(*mat.Dense); ok && d == nil {
		return
	}
	r, c := a.Dims()
	b.manifest.Inputs[name] = ManifestArray{File: name + ".npy", Shape: []int{r, c}}
	b.arrays[name] = a
}

// seed draws the manifest's seed from rng (53 bits, exact in a double);
// without a stream (nil) the manifest has none.
func (b *batch) seed(rng *rand.Rand) {
	if rng == nil {
		return
	}
	s := rng.Uint64() >> 11
	b.manifest.Seed = &s
}

// PreImage writes the problem (X, K, Gamma, and X0 and Start when present)
// and runs the command with capability "pre-image".
func (e *External) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("external: %w", err)
	}
	n, d := p.Basis.X.Dims()
	b := newBatch("pre-image", p.Basis.Kernel, p.M(), n, d)
	b.add("X", p.Basis.X)
	b.add("K", p.Basis.K)
	b.add("Gamma", p.Gamma)
	b.add("X0", p.X0)
	b.add("Start", p.Start)
	b.seed(p.Rand)
	return e.run(dst, b)
}

// Denoise writes the noisy inputs X0 and, with a model, the training
// inputs X, their Gram matrix K, the kernel values Kx = k(X0, X) and the
// projection Gamma of X0 on in.Q components, with Mask when present, and
// runs the command with capability "de-noise".
func (e *External) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if in == nil || in.X0 == nil {
		return nil, errors.New("external: no inputs to denoise")
	}
	m, d := in.X0.Dims()
	if in.Mask != nil {
		if r, c := in.Mask.Dims(); r != m || c != d {
			return nil, fmt.Errorf("external: mask is %d×%d, inputs %d×%d", r, c, m, d)
		}
	}
	var b *batch
	if in.Model == nil {
		b = newBatch("de-noise", nil, m, 0, d)
	} else {
		if err := checkDenoiseInput(in); err != nil {
			return nil, fmt.Errorf("external: %w", err)
		}
		b = newBatch("de-noise", in.Model.Kernel, m, in.Model.N(), d)
		proj := in.Model.Project(in.X0, in.Q)
		q := in.Q
		b.manifest.Q = &q
		b.add("X", in.Model.X)
		b.add("K", in.Model.K)
		b.add("Kx", proj.Kx)
		b.add("Gamma", proj.Gamma)
	}
	b.add("X0", in.X0)
	b.add("Mask", in.Mask)
	b.seed(in.Rand)
	return e.run(dst, b)
}

// run writes b into a fresh directory, runs the command on it and reads the
// result back into dst.
func (e *External) run(dst *mat.Dense, b *batch) (st []Status, err error) {
	if len(e.Command) == 0 {
		return nil, errors.New("external: no command (set the command parameter)")
	}
	b.manifest.Params = e.Params
	if b.manifest.Params == nil {
		b.manifest.Params = map[string]any{}
	}
	// The folder's name says which process on which host made it
	// (safefs.Writer), so that a later run can remove it, and stop what
	// still runs in it, once that process is gone (SweepStaleBatches).
	dir, err := os.MkdirTemp("", batchPrefix+safefs.Writer+"-")
	if err != nil {
		return nil, fmt.Errorf("external: %w", err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			st, err = nil, fmt.Errorf("external: removing %s: %w", dir, rerr)
		}
	}()
	if err := b.write(dir); err != nil {
		return nil, fmt.Errorf("external: writing the problem: %w", err)
	}
	note, err := e.exec(dir)
	if err != nil {
		return nil, err
	}
	// A result is what the command left when it exited; when it left
	// processes behind (killed by now), a refusal says so, since one of
	// them may have been about to write it.
	refuse := func(err error) error {
		if note != "" {
			return fmt.Errorf("external: %s: %w (%s; the result must be complete when the command exits)", e.name(), err, note)
		}
		return fmt.Errorf("external: %s: %w", e.name(), err)
	}
	m, d := b.manifest.M, b.manifest.D
	z, err := readResult(filepath.Join(dir, b.manifest.Output), m, d)
	if err != nil {
		return nil, refuse(err)
	}
	st, err = readStatus(filepath.Join(dir, b.manifest.Status), m)
	if err != nil {
		return nil, refuse(err)
	}
	ran, err := readRanParams(filepath.Join(dir, b.manifest.ParamsOut))
	if err != nil {
		return nil, refuse(err)
	}
	if ran != nil && e.report != nil {
		e.report(ran)
	}
	loaded, err := readLoaded(filepath.Join(dir, b.manifest.ModulesOut))
	if err != nil {
		return nil, refuse(err)
	}
	if loaded != nil && e.loaded != nil {
		e.loaded(loaded)
	}
	useDst(dst, m, d)
	dst.Copy(z)
	CheckFinite(dst, st)
	return st, nil
}

// name is the command as a failure quotes it: words with white space or
// quotes in single quotes, so that SplitCommand would give them back.
func (e *External) name() string {
	w := make([]string, len(e.Command))
	for i, a := range e.Command {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		w[i] = a
	}
	return strings.Join(w, " ")
}

func (b *batch) write(dir string) error {
	for name, a := range b.arrays {
		if err := writeNpy(filepath.Join(dir, b.manifest.Inputs[name].File), a); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	enc, err := json.MarshalIndent(b.manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(enc, '\n'), 0o644)
}

func writeNpy(path string, a mat.Matrix) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	// npyio writes a *mat.Dense with its shape, in C order.
	werr := npy.Write(w, mat.DenseCopyOf(a))
	if werr == nil {
		werr = w.Flush()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// exec runs the command on dir with the time limit, killing its whole
// process group when the limit passes and as soon as the command itself
// exits, so that nothing it left in its group outlives the batch or
// touches the result while it is read. Where it can (Unix), it runs the
// command under a reaper (external_reaper.go), a small process of its
// own that kills the command's group and removes dir if runexp dies
// first, however it dies: kill -9 of runexp or of its process group,
// SIGTERM, a crash. Standard error goes through a pipe runexp reads
// itself: a child that inherited it and still runs cannot hold the batch
// (os/exec would wait for it, then fail a good batch with "WaitDelay
// expired"). The returned note, when not empty, says that processes the
// command had started were still running when it exited and were killed;
// a refused result quotes it.
func (e *External) exec(dir string) (note string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), e.Timeout)
	defer cancel()
	args := append(append([]string(nil), e.Command[1:]...), dir)
	pr, pw, err := os.Pipe()
	if err != nil {
		return "", fmt.Errorf("external: %w", err)
	}
	defer pr.Close()
	tail := &tailWriter{max: externalStderrTail}
	copied := make(chan struct{})
	go func() {
		io.Copy(tail, pr)
		close(copied)
	}()
	out, err := runBatch(ctx, e.Command[0], args, dir, pw)
	pw.Close() // every process that writes it holds its own copy
	if err == nil && out.Leftover {
		note = "processes the command had started were still running when it exited, and were killed"
	}
	// The tail is complete once every holder of the pipe is gone; one
	// that escaped the group (setsid) may keep it open, and is not
	// waited for.
	select {
	case <-copied:
	case <-time.After(externalStderrGrace):
		pr.Close()
		<-copied
	}
	var se *startError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return note, &CommandError{Command: e.name(), Reason: fmt.Sprintf("timed out after %v (process group killed)", e.Timeout), Stderr: tail.text()}
	case errors.As(err, &se):
		return "", fmt.Errorf("external: starting %s: %w", e.name(), se.err)
	case err != nil:
		return note, fmt.Errorf("external: %s: %w%s", e.name(), err, quoteStderr(tail.text()))
	case out.State != exitedOK:
		return note, &CommandError{Command: e.name(), Reason: fmt.Sprintf("failed (%s)", out.State), Stderr: tail.text(),
			Unsupported: out.Code == ExitUnsupported}
	}
	return note, nil
}

// exitedOK is the ProcessState text of a command that exited with status 0.
const exitedOK = "exit status 0"

// batchOutcome is how a batch's command ended.
type batchOutcome struct {
	// State is the command's os.ProcessState as text: "exit status 0",
	// "exit status 1", "signal: killed".
	State string `json:"state"`
	// Code is its exit status, -1 when a signal ended it.
	Code int `json:"code"`
	// Leftover is set when processes of its group were still running
	// when it exited (they were killed).
	Leftover bool `json:"leftover,omitempty"`
	// StartErr is why it could not start (from the reaper).
	StartErr string `json:"start_error,omitempty"`
}

// startError is a command that could not start.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }

// runDirect runs name with args as the leader of a new process group,
// standard error to stderr, and kills the group when ctx ends and once
// the command has exited: the batch without a reaper.
func runDirect(ctx context.Context, name string, args []string, dir string, stderr *os.File) (batchOutcome, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "RUNEXP_ESTIMATOR_DIR="+dir)
	cmd.Stderr = stderr
	newProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	lock := dieWithCaller(cmd)
	err := cmd.Start()
	if err != nil {
		lock()
		return batchOutcome{}, &startError{err}
	}
	err = cmd.Wait()
	lock()
	// Whatever the command left in its group is killed now, before the
	// result is read. kill(2) succeeds only when the group still had a
	// member.
	out := batchOutcome{Leftover: killProcessGroup(cmd) == nil}
	var ee *exec.ExitError
	switch {
	case err == nil:
		out.State, out.Code = exitedOK, 0
	case errors.As(err, &ee):
		out.State, out.Code = ee.ProcessState.String(), ee.ExitCode()
	default:
		return out, err
	}
	return out, nil
}

// batchPrefix starts the name of every batch folder runexp makes in
// TMPDIR: runexp-external-WRITER-RANDOM.
const batchPrefix = "runexp-external-"

// ExitUnsupported is the exit status by which an external command declines
// a batch it was not built for (python/runexp_estimator.py exits with it
// when the estimator raises rx.Unsupported): its CommandError wraps
// ErrUnsupported.
const ExitUnsupported = 3

// CommandError is the failure of an external command that exited with a
// non-zero status, was killed by a signal or ran out of time. Its message
// quotes the tail of the command's standard error; Unwrap gives
// ErrUnsupported for the exit status ExitUnsupported.
type CommandError struct {
	// Command is the command line as SplitCommand would read it back.
	Command string
	// Reason says how it ended: "failed (exit status 1)", "timed out
	// after 10m0s (process group killed)".
	Reason string
	// Stderr is the tail of its standard error ("…" first when cut),
	// "" when it wrote none.
	Stderr string
	// Unsupported is set for the exit status ExitUnsupported.
	Unsupported bool
}

func (e *CommandError) Error() string {
	return "external: " + e.Command + " " + e.Reason + quoteStderr(e.Stderr)
}

// Unwrap returns ErrUnsupported for a command that declined the batch.
func (e *CommandError) Unwrap() error {
	if e.Unsupported {
		return ErrUnsupported
	}
	return nil
}

// externalStderrGrace is how long a batch waits, after the command and its
// process group are gone, for the rest of its standard error.
const externalStderrGrace = 200 * time.Millisecond

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	max int
	buf []byte
	cut bool
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

// text returns the tail, "…" first when it was cut, or "" when nothing
// was written.
func (t *tailWriter) text() string {
	s := strings.TrimSpace(string(t.buf))
	if s != "" && t.cut {
		s = "…" + s
	}
	return s
}

// quoteStderr is a failure's quotation of standard error s (a tail's
// text).
func quoteStderr(s string) string {
	if s == "" {
		return "; no standard error"
	}
	return "; standard error:\n" + s
}

// npyMagic starts every .npy file, before the version and header length.
var npyMagic = []byte("\x93NUMPY")

// readResult reads an m×d float64 matrix from path. npyio trusts the
// file's header (it allocates the header length it reads and slices at
// the header's last newline), so the header is bounded and the shape and
// type checked here before npyio reads any data, and a panic on a
// malformed file is turned into an error.
func readResult(path string, m, d int) (z *mat.Dense, err error) {
	name := filepath.Base(path)
	// NumPy headers are padded to 64 bytes; 1 MiB is far beyond any.
	data, err := readRegular(path, int64(8*m*d)+1<<20)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("wrote no %s", name)
	}
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s is not a valid .npy file: %s", name, fmt.Sprintf(format, args...))
	}
	if len(data) < 10 || !bytes.Equal(data[:6], npyMagic) {
		return nil, bad("no NumPy magic string")
	}
	var hdrLen, start int
	switch data[6] {
	case 1:
		hdrLen, start = int(binary.LittleEndian.Uint16(data[8:10])), 10
	case 2, 3:
		if len(data) < 12 {
			return nil, bad("truncated header")
		}
		hdrLen, start = int(binary.LittleEndian.Uint32(data[8:12])), 12
	default:
		return nil, bad("version %d", data[6])
	}
	if hdrLen > len(data)-start || !bytes.Contains(data[start:start+hdrLen], []byte("\n")) {
		return nil, bad("header length %d in a file of %d bytes", hdrLen, len(data))
	}
	defer func() {
		if r := recover(); r != nil {
			z, err = nil, bad("%v", r)
		}
	}()
	r, err := npy.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, bad("%v", err)
	}
	if t := r.Header.Descr.Type; t != "<f8" && t != ">f8" {
		return nil, fmt.Errorf("%s holds %s, want float64 (<f8)", name, t)
	}
	if s := r.Header.Descr.Shape; len(s) != 2 || s[0] != m || s[1] != d {
		return nil, fmt.Errorf("%s has shape %v, want (%d, %d)", name, s, m, d)
	}
	if want := start + hdrLen + 8*m*d; len(data) != want {
		return nil, bad("%d bytes, want %d for a (%d, %d) float64 array", len(data), want, m, d)
	}
	var out mat.Dense
	if err := r.Read(&out); err != nil && err != io.EOF {
		return nil, bad("%v", err)
	}
	return &out, nil
}

// readRegular reads a regular file of at most max bytes: a FIFO would
// block and a device or a runaway file exhaust memory.
func readRegular(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", filepath.Base(path), fi.Mode().Type())
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d its shape allows", filepath.Base(path), fi.Size(), max)
	}
	return os.ReadFile(path)
}

// maxRanParams bounds params.json: a parameter list, not data.
const maxRanParams = 1 << 20

// readRanParams reads the optional params.json, in which the process
// reports the parameters it ran with: a JSON object whose values are
// numbers, strings, booleans or null (nil without the file).
func readRanParams(path string) (map[string]any, error) {
	data, err := readRegular(path, maxRanParams)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, fmt.Errorf("params.json is not a JSON object of parameters: %v", err)
	}
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		switch x := v.(type) {
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("params.json: %s: %v", k, err)
			}
			out[k] = f
		case string, bool, nil:
			out[k] = x
		default:
			// A list or an object is kept as its JSON text: a label,
			// not a value to compute with.
			b, _ := json.Marshal(x)
			out[k] = string(b)
		}
	}
	return out, nil
}

// Bounds on modules.json: a process that imports NumPy loads about a
// hundred files, scikit-learn a thousand or two.
const (
	maxLoadedBytes = 8 << 20
	maxLoadedFiles = 20000
)

// readLoaded reads the optional modules.json, in which the process lists
// the files it loaded: a JSON array of absolute paths (nil without the
// file). Each is cleaned; a relative one is refused, since it names no
// file once the batch is over.
func readLoaded(path string) ([]string, error) {
	data, err := readRegular(path, maxLoadedBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []string
	if err := json.Unmarshal(data, &files); err != nil {
		return nil, fmt.Errorf("modules.json is not a JSON array of file paths: %v", err)
	}
	if len(files) > maxLoadedFiles {
		return nil, fmt.Errorf("modules.json lists %d files, more than the %d a process loads", len(files), maxLoadedFiles)
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !filepath.IsAbs(f) {
			return nil, fmt.Errorf("modules.json: %q is not an absolute path", f)
		}
		out = append(out, filepath.Clean(f))
	}
	sort.Strings(out)
	return slices.Compact(out), nil
}

// readStatus reads the optional status.json: a JSON array of m rows, each
// null (the row went well) or a ManifestRow. No file means every row went
// well.
func readStatus(path string, m int) ([]Status, error) {
	st := make([]Status, m)
	data, err := readRegular(path, int64(m)*4096+1<<20)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []*ManifestRow
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("status.json is not a JSON array of rows: %v", err)
	}
	if len(rows) != m {
		return nil, fmt.Errorf("status.json has %d rows, want %d", len(rows), m)
	}
	for i, r := range rows {
		if r == nil {
			continue
		}
		st[i].Iterations = r.Iterations
		st[i].Converged = r.Converged == nil || *r.Converged
		if r.Error != "" {
			st[i].Err = errors.New("external: " + r.Error)
		}
		if len(r.Diag) > 0 {
			st[i].Diag = r.Diag
		}
	}
	return st, nil
}

// ExternalLabel is the label an external estimator added without one
// gets (runexp --with external:…): the name of its script (the last
// word of the command that names a file with an extension, else the
// program), without folder and extension, then its own parameters (the
// params JSON object) in brackets, "knn_input[k=3]", as benchopt names a
// solver run. A command that does not split gives "external".
func ExternalLabel(command, params string) string {
	words, err := SplitCommand(command)
	if err != nil || len(words) == 0 {
		return "external"
	}
	name := words[0]
	for _, w := range words[1:] {
		if ext := filepath.Ext(w); len(ext) >= 2 && len(ext) <= 4 && unicode.IsLetter(rune(ext[1])) && !strings.HasPrefix(w, "-") {
			name = w
		}
	}
	name = filepath.Base(name)
	name = strings.TrimSuffix(name, filepath.Ext(name))
	var obj map[string]json.RawMessage
	if strings.TrimSpace(params) == "" || json.Unmarshal([]byte(params), &obj) != nil || len(obj) == 0 {
		return name
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := string(obj[k])
		var s string
		if json.Unmarshal(obj[k], &s) == nil {
			v = s
		}
		parts[i] = k + "=" + v
	}
	return name + "[" + strings.Join(parts, ",") + "]"
}
