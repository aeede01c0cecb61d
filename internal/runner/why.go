package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/runexp/runexp/internal/codefp"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// Reason says why a cell is computed rather than read from the cache:
// runexp status and run --dry-run print it, a run logs it (-v) and
// suite.json keeps it.
//
// A cache entry is found by the hash of its whole key, so an entry whose
// key changed is simply not found. To say what changed, the cache keeps
// two things beside the entries: for each config's cell (by config name
// and cell key) the hash of the key its last stored or read entry had
// (last/), and for each code fingerprint the digests of the declarations
// it covers (code/). The old key is then compared with the new one part
// by part, and a code fingerprint's declarations with the code's now.
type Reason struct {
	Cell string `json:"cell"`
	// Why are the causes, each one word: "new" (no entry for the cell,
	// nor one of it before), "config" (the config's context: dataset
	// options, corruption, seed, experiment options), "code" (of the
	// kind, dataset or estimator), "data" (a data file it read),
	// "external" (an external estimator's command or scripts),
	// "version", "backend", "format" (of the cache), "forced" (--force),
	// "no-cache" (--no-cache) and "rejected" (a damaged entry).
	Why []string `json:"why"`
	// Text says it for a reader, with what changed: the keys with their
	// old and new values, the declarations, the data file.
	Text string `json:"text"`
}

func reasonOf(cell, why, text string) Reason {
	return Reason{Cell: cell, Why: []string{why}, Text: text}
}

// lastPath is where the cache remembers the key hash of the entry config's
// cell had last.
func (c *Cache) lastPath(config, cell string) string {
	h := sha256.Sum256([]byte(config + "\x00" + cell))
	s := hex.EncodeToString(h[:])
	return filepath.Join(c.Dir, "last", s[:2], s)
}

// last returns the key hash remembered for config's cell.
func (c *Cache) last(config, cell string) (string, bool) {
	file := c.lastPath(config, cell)
	if safefs.CheckUnder(c.Dir, filepath.Dir(file)) != nil {
		return "", false
	}
	b, err := safefs.ReadFile(file, 256)
	if err != nil {
		return "", false
	}
	h := strings.TrimSpace(string(b))
	if len(h) != 64 {
		return "", false
	}
	return h, true
}

// remember records key as the key config's cell has now (after a cache
// hit, or once its entry is stored), unless it is already recorded. It
// only serves explanations: an error is returned for the caller to
// ignore.
func (c *Cache) remember(config, cell string, key CellKey) error {
	h := key.Hash()
	if old, ok := c.last(config, cell); ok && old == h {
		return nil
	}
	file := c.lastPath(config, cell)
	if err := safefs.MkdirUnder(c.Dir, filepath.Dir(file)); err != nil {
		return err
	}
	return report.WriteFileAtomic(file, []byte(h+"\n"))
}

// codeFile is what the cache keeps of a code fingerprint: the digest of
// each declaration it covers (codefp.Index.DeclSums).
type codeFile struct {
	Fingerprint string            `json:"fingerprint"`
	Decls       map[string]string `json:"decls"`
}

func (c *Cache) codePath(fp string) string {
	return filepath.Join(c.Dir, "code", fp[:2], fp+".json")
}

// keptCode remembers, per cache folder and fingerprint, the code files
// written by this process.
var keptCode sync.Map

// keepCode stores the declaration digests of the code registered from
// file (a kind's, dataset's or estimator's registering file), unless the
// cache has them. Code registered from outside the module's sources (a
// test) has none.
func (c *Cache) keepCode(file string) error {
	fp, decls, err := codeDecls(file)
	if err != nil || decls == nil || len(fp) < 2 {
		return err
	}
	id := c.Dir + "\x00" + fp
	if _, done := keptCode.Load(id); done {
		return nil
	}
	path := c.codePath(fp)
	if safefs.CheckUnder(c.Dir, filepath.Dir(path)) == nil {
		if _, err := safefs.ReadFile(path, maxCodeFileBytes); err == nil {
			keptCode.Store(id, true)
			return nil
		}
	}
	b, err := json.Marshal(codeFile{Fingerprint: fp, Decls: decls})
	if err != nil {
		return err
	}
	if err := safefs.MkdirUnder(c.Dir, filepath.Dir(path)); err != nil {
		return err
	}
	if err := report.WriteFileAtomic(path, b); err != nil {
		return err
	}
	keptCode.Store(id, true)
	return nil
}

// maxCodeFileBytes bounds a code file read back: a few thousand
// declarations of a hundred bytes each.
const maxCodeFileBytes = 64 << 20

// code returns the declaration digests kept for fingerprint fp.
func (c *Cache) code(fp string) (map[string]string, bool) {
	if len(fp) < 2 {
		return nil, false
	}
	path := c.codePath(fp)
	if safefs.CheckUnder(c.Dir, filepath.Dir(path)) != nil {
		return nil, false
	}
	b, err := safefs.ReadFile(path, maxCodeFileBytes)
	if err != nil {
		return nil, false
	}
	var f codeFile
	if json.Unmarshal(b, &f) != nil || f.Fingerprint != fp {
		return nil, false
	}
	return f.Decls, true
}

// codeDecls returns the fingerprint of the code reached from file and its
// declarations' digests; nil digests for code registered from outside the
// module's sources.
func codeDecls(file string) (string, map[string]string, error) {
	ix, err := codeIndex()
	if err != nil {
		return "", nil, err
	}
	p, ok := ix.Resolve(file)
	if !ok {
		return "", nil, nil
	}
	fp, err := ix.Fingerprint(p)
	if err != nil {
		return "", nil, err
	}
	decls, err := ix.DeclSums(p)
	return fp, decls, err
}

// keepCodeOf stores the declaration digests of every code fingerprint in
// the keys of the cells about to be computed: the kind's, the dataset's
// and each estimator's.
func (c *Cache) keepCodeOf(kind *Kind, dataset string, cells []*Cell) {
	files := map[string]bool{kind.File: true}
	if ds, ok := LookupDataset(dataset); ok {
		files[ds.File] = true
	}
	for _, cell := range cells {
		if cell.Method != nil {
			files[cell.Method.Spec.File] = true
			if cell.Method.Spec.Name == "external" {
				c.keepExternal(cell.Method.Params) // likewise
			}
		}
	}
	for f := range files {
		c.keepCode(f) // an explanation lost is no error of the run
	}
}

// externalPath is where the cache keeps what an external estimator's
// fingerprint covered (methods.ExternalFiles), by fingerprint.
func (c *Cache) externalPath(fp string) string {
	return filepath.Join(c.Dir, "external", fp[:2], fp+".json")
}

// keepExternal stores the files the fingerprint of the external
// estimator bound in p covers, with their SHA-256, unless the cache has
// them: a later explanation names the files that changed.
func (c *Cache) keepExternal(p methods.Params) error {
	fp, files, err := methods.ExternalFiles(p)
	if err != nil || len(fp) < 2 {
		return err
	}
	id := c.Dir + "\x00external\x00" + fp
	if _, done := keptCode.Load(id); done {
		return nil
	}
	path := c.externalPath(fp)
	if err := safefs.MkdirUnder(c.Dir, filepath.Dir(path)); err != nil {
		return err
	}
	b, err := json.Marshal(codeFile{Fingerprint: fp, Decls: files})
	if err != nil {
		return err
	}
	if err := report.WriteFileAtomic(path, b); err != nil {
		return err
	}
	keptCode.Store(id, true)
	return nil
}

// externalChange says which files an external estimator's fingerprint
// covers changed between fingerprints old and now (p: the estimator's
// parameters now).
func (c *Cache) externalChange(old, now string, p methods.Params) string {
	head := "the external estimator's command or scripts changed"
	if len(old) < 2 {
		return head
	}
	path := c.externalPath(old)
	if safefs.CheckUnder(c.Dir, filepath.Dir(path)) != nil {
		return head
	}
	b, err := safefs.ReadFile(path, maxCodeFileBytes)
	var was codeFile
	if err != nil || json.Unmarshal(b, &was) != nil || was.Fingerprint != old {
		return head + " (the cache keeps no file list of the old one)"
	}
	fp, files, err := methods.ExternalFiles(p)
	if err != nil || fp != now {
		return head
	}
	var changed []string
	for name, sum := range files {
		if prev, ok := was.Decls[name]; !ok {
			changed = append(changed, strings.TrimPrefix(name, "import ")+" (new)")
		} else if prev != sum {
			changed = append(changed, strings.TrimPrefix(name, "import "))
		}
	}
	for name := range was.Decls {
		if _, ok := files[name]; !ok {
			changed = append(changed, strings.TrimPrefix(name, "import ")+" (gone)")
		}
	}
	sort.Strings(changed)
	if len(changed) == 0 {
		return head + ": its command line"
	}
	return head + ": " + strings.Join(changed, ", ")
}

// oldEntry is the part of an entry an explanation reads: its key, the
// data files it was computed on and its time.
type oldEntry struct {
	Key    CellKey          `json:"key"`
	Data   []report.FileSum `json:"data"`
	Timing *CellTime        `json:"timing"`
}

// readOld reads the key, data and time of the entry of hash h.
func (c *Cache) readOld(h string) (*oldEntry, error) {
	file := c.path(h)
	if err := safefs.CheckUnder(c.Dir, filepath.Dir(file)); err != nil {
		return nil, err
	}
	b, err := safefs.ReadFile(file, maxEntryBytes)
	if err != nil {
		return nil, err
	}
	var e oldEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("damaged entry (%v)", err)
	}
	if e.Key.Hash() != h {
		return nil, errors.New("the entry holds another key")
	}
	return &e, nil
}

// whyMissing explains a cell of config whose key has no entry: from the
// entry the cell had last (Cache.last), what differs between its key and
// key, and which of its data files changed. It also returns that old
// entry's time, when it recorded one (a prediction of the new one).
func (c *Cache) whyMissing(config string, kind *Kind, cell *Cell, key CellKey, sums func(string) (string, bool)) (Reason, *CellTime) {
	h, ok := c.last(config, cell.Key)
	switch {
	case !ok:
		return reasonOf(cell.Key, "new", "not in the cache"), nil
	case h == key.Hash():
		return reasonOf(cell.Key, "new", "not in the cache (its entry was removed)"), nil
	}
	old, err := c.readOld(h)
	if errors.Is(err, fs.ErrNotExist) {
		return reasonOf(cell.Key, "new", "not in the cache (the entry it had before was removed)"), nil
	}
	if err != nil {
		return reasonOf(cell.Key, "new", "not in the cache (the entry it had before cannot be read: "+err.Error()+")"), nil
	}
	r := Reason{Cell: cell.Key}
	add := func(why, text string) {
		if !containsString(r.Why, why) {
			r.Why = append(r.Why, why)
		}
		if r.Text != "" {
			r.Text += "; "
		}
		r.Text += text
	}
	c.diffKeys(old.Key, key, kind, cell, add)
	for _, f := range old.Data {
		now, ok := sums(f.Path)
		if !ok {
			now = "none"
		}
		if now != f.SHA256 {
			add("data", fmt.Sprintf("data changed: %s (SHA-256 %.12s → %.12s)", f.Path, f.SHA256, now))
		}
	}
	if len(r.Why) == 0 {
		add("new", "not in the cache (the key changed in no part runexp can name)")
	}
	return r, old.Timing
}

func containsString(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// diffKeys calls add with each part in which key now differs from old.
func (c *Cache) diffKeys(old, now CellKey, kind *Kind, cell *Cell, add func(why, text string)) {
	if old.Format != now.Format {
		add("format", fmt.Sprintf("the cache format changed (%s → %s)", old.Format, now.Format))
	}
	if old.Backend != now.Backend {
		add("backend", fmt.Sprintf("the linear-algebra backend changed (%s → %s)", old.Backend, now.Backend))
	}
	if old.Kind != now.Kind || old.Dataset != now.Dataset || old.Method != now.Method {
		add("config", fmt.Sprintf("config changed: kind, dataset or estimator (%s/%s/%s → %s/%s/%s)", old.Kind, old.Dataset, old.Method, now.Kind, now.Dataset, now.Method))
	}
	if old.Context != now.Context {
		add("config", "config changed: "+ContextDiff(old.Context, now.Context))
	}
	if old.KindVersion != now.KindVersion {
		add("version", fmt.Sprintf("kind %s's version changed (%s → %s)", now.Kind, old.KindVersion, now.KindVersion))
	}
	if old.MethodVersion != now.MethodVersion {
		add("version", fmt.Sprintf("estimator %s's version changed (%s → %s)", now.Method, old.MethodVersion, now.MethodVersion))
	}
	if old.KindCode != now.KindCode {
		add("code", c.codeChange("kind "+now.Kind, old.KindCode, now.KindCode, kind.File))
	}
	if old.DatasetCode != now.DatasetCode {
		file := ""
		if ds, ok := LookupDataset(now.Dataset); ok {
			file = ds.File
		}
		add("code", c.codeChange("dataset "+now.Dataset, old.DatasetCode, now.DatasetCode, file))
	}
	if old.MethodCode != now.MethodCode && cell.Method != nil {
		add("code", c.codeChange("estimator "+now.Method, old.MethodCode, now.MethodCode, cell.Method.Spec.File))
	}
	if old.MethodExternal != now.MethodExternal {
		text := "the external estimator's command or scripts changed"
		if cell.Method != nil {
			text = c.externalChange(old.MethodExternal, now.MethodExternal, cell.Method.Params)
		}
		add("external", text)
	}
}

// shownDecls is how many changed declarations a reason names.
const shownDecls = 4

// codeChange says which declarations of the code registered from file
// (owner names it: "estimator mika") changed between fingerprints old
// and now.
func (c *Cache) codeChange(owner, old, now, file string) string {
	head := "code changed (" + owner + ")"
	oldDecls, ok := c.code(old)
	if !ok {
		return fmt.Sprintf("%s: fingerprint %.12s → %.12s (the cache keeps no declaration list of the old code)", head, old, now)
	}
	fp, nowDecls, err := codeDecls(file)
	if err != nil || nowDecls == nil || fp != now {
		return fmt.Sprintf("%s: fingerprint %.12s → %.12s", head, old, now)
	}
	ch := codefp.Diff(oldDecls, nowDecls)
	if len(ch) == 0 {
		return head + ": the same declarations, in another order"
	}
	var parts []string
	for _, d := range ch[:min(len(ch), shownDecls)] {
		parts = append(parts, d.String())
	}
	s := head + ": " + strings.Join(parts, ", ")
	if n := len(ch) - shownDecls; n > 0 {
		files := map[string]bool{}
		for _, d := range ch[shownDecls:] {
			files[d.File] = true
		}
		s += fmt.Sprintf(" and %d more in %d files", n, len(files))
	}
	return s
}

// ContextDiff says how two config contexts (config.Config.Context, a
// canonical key of nested sections) differ: each key whose value changed,
// "corruption.std 0.1 → 0.2", or that one side lacks ("unset").
func ContextDiff(old, now string) string {
	a, b := flatKey(old, ""), flatKey(now, "")
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		if a[k] != b[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		x, y := a[k], b[k]
		if x == "" {
			x = "unset"
		}
		if y == "" {
			y = "unset"
		}
		parts = append(parts, k+" "+x+" → "+y)
	}
	if len(parts) == 0 {
		return "the context changed in its form only"
	}
	return strings.Join(parts, ", ")
}

// flatKey reads a canonical key (config.CanonicalKey) into its values by
// dotted name, nested sections ("{...}") flattened.
func flatKey(s, prefix string) map[string]string {
	out := map[string]string{}
	for _, part := range splitTop(s) {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		if len(v) >= 2 && v[0] == '{' && v[len(v)-1] == '}' {
			for kk, vv := range flatKey(v[1:len(v)-1], prefix+k+".") {
				out[kk] = vv
			}
			continue
		}
		out[prefix+k] = v
	}
	return out
}

// splitTop splits a canonical key on its commas outside braces, brackets
// and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	quoted := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case quoted && ch == '\\':
			i++
		case ch == '"':
			quoted = !quoted
		case quoted:
		case ch == '{' || ch == '[':
			depth++
		case ch == '}' || ch == ']':
			depth--
		case ch == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// CellPlan is what a run would do with one cell of a config (DryRun).
type CellPlan struct {
	Cell *Cell
	Key  CellKey
	// Cached is set when the cache serves the cell.
	Cached bool
	// Reason says why a cell the cache does not serve would be computed.
	Reason Reason
	// Cost is the time (CellTime.Cost) a cell that would be computed
	// took when it was last computed: as the entry of its key recorded it
	// (now stale, or passed over by --force), else the entry it had
	// before (another key's); 0 when neither records one.
	Cost float64
}

// DryRun says what a run of c with opt would do with each of its cells
// (the shard's, for opt.Shard): whether the cache serves it, or why it
// would be computed, decided by the lookup a run makes (lookupCells). It
// locks nothing, writes nothing and reads no data file: only the data
// root's SHA256SUMS, which cached entries' data files are checked
// against. A config whose methods run external commands needs
// opt.AllowExternal, as a run does: their keys read the scripts.
func DryRun(c *config.Config, opt Options) ([]CellPlan, error) {
	plan, err := Validate(c)
	if err != nil {
		return nil, err
	}
	if ext := ExternalCommands(c); len(ext) > 0 && !opt.AllowExternal {
		return nil, &ExternalNotAllowedError{File: c.File, Commands: ext}
	}
	var cache *Cache
	if !opt.NoCache {
		// As a run: a cache it would refuse is refused here, not
		// predicted from.
		cd := opt.cacheDir()
		if err := checkCacheDir(cd); err != nil {
			return nil, err
		}
		cache = &Cache{Dir: cd}
	}
	var cells []*Cell
	var sel [][]bool
	in := opt.Shard.selection(plan.Cells)
	for _, cell := range plan.Cells {
		if in[cell.Index] != nil {
			cells = append(cells, cell)
			sel = append(sel, in[cell.Index])
		}
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	env := plan.env(c, opt.DataDir, log)
	recs := make([]report.Record, len(cells))
	l, err := lookupCells(c, plan.Kind, cells, sel, cache, opt.Force, env, recs)
	if err != nil {
		return nil, err
	}
	out := make([]CellPlan, len(cells))
	for i, cell := range cells {
		out[i] = CellPlan{Cell: cell, Key: l.keys[i], Cached: true}
	}
	// A cell computed in parts is computed when one of its parts of the
	// run is (its cost: the whole cell's, as recorded).
	for t, i := range l.todoCells {
		p := &out[i]
		p.Cached, p.Reason = false, l.reasons[t]
		if cache != nil {
			if ct, ok := cache.RecordedTime(l.keys[i]); ok {
				p.Cost = ct.Cost()
				continue
			}
		}
		if l.prev[t] != nil {
			p.Cost = l.prev[t].Cost()
		}
	}
	return out, nil
}
