// Package config reads runexp experiment configs: one YAML file per paper
// table or figure.
//
// # Schema
//
//	title:      string, required — what the config regenerates
//	paper:      string, required — id of the paper; paper values and claims
//	            cite ../shared/paper-values/<paper>.yaml
//	kind:       string, required — experiment kind (runexp list)
//	seed:       integer ≥ 0, default 1 — root seed; each cell derives its
//	            own stream from it and the cell's canonical key
//	repeats:    integer 1..100, default 1 — corruption draws; draw r is
//	            seeded from the root seed and r (draw 0 is the draw of a
//	            config without repeats) and shared by every method; per-item
//	            scores pool over items × draws, intervals resample items
//	            with their draws, and claims count the interval verdict
//	            (docs/exit-status.md). Kinds with repeats: denoise; any
//	            other kind rejects the key
//	notes:      string — stand-in data, readings of ambiguous text
//	reading:    string, one line — the reading of ambiguous text this
//	            config takes; every figure caption names it
//	variant_of: string — the base config's file name (beside this one)
//	            when this config is the base under one documented reading
//	            (docs/readings.md); claims keep the base's ids, and the
//	            scoreboard shows the verdicts as a column of the base's
//	diagnostic: boolean, default false, needs variant_of — the variant
//	            probes our stand-in rather than reading the paper; shown
//	            on the scoreboard, never counted as reproducing a claim
//	dataset:    mapping, required
//	  name:     string — dataset (runexp list)
//	  <other>:  dataset options, checked by the dataset
//	corruption: mapping, optional
//	  type:     none | gaussian | occlusion
//	  std | variance: number ≥ 0 (gaussian; exactly one)
//	  min_side, max_side: integers ≥ 1 (occlusion: a black rectangle whose
//	            sides are drawn uniformly in [min_side, max_side] pixels)
//	  stretch:  boolean — map each corrupted image linearly onto [0, 1]
//	  clip:     boolean — clamp each corrupted image's entries to [0, 1]
//	            instead (as image-noise routines do); excludes stretch
//	  copies:   integer ≥ 1, default 1 — corrupted copies per image
//	model:      mapping, optional
//	  kernel:   gaussian | linear | polynomial
//	  c | gamma | sigma: number > 0 or list — Gaussian width in the paper's
//	            own parameterisation: exp(−‖x−y‖²/c), exp(−γ‖x−y‖²),
//	            exp(−‖x−y‖²/σ²)
//	  degree, offset: polynomial kernel
//	  components: integer ≥ 1 or list — number of principal components
//	  energy:   number in (0, 1] or list — alternatively, the fraction of
//	            the eigenvalue sum to keep
//	methods:    list of mappings, optional
//	  - name:   registered estimator (runexp list)
//	    label:  string — name in tables and legends (default: its title)
//	    params: mapping — estimator parameters; a list expands to a grid
//	experiment: mapping — options of the experiment kind
//	outputs:    mapping, optional
//	  dir:      string — result folder inside --out (default: the config
//	            file's name); relative, of plain names (no "..", no
//	            leading dot, not absolute)
//	  width, height: number in (0, 100] — figure size in centimetres
//	paper_table: mapping, optional — the paper's table the reference
//	            values fill (see "The paper's table" below)
//	  title:    string, one line, required — the paper's table and the
//	            reading of its metric the values are compared under
//	  corner:   label — the header over the row labels
//	  parts:    list of labels — one table each, when the paper's cells
//	            hold several quantities (e.g. [APE, SNR])
//	  rows, columns: lists of labels, required — as the paper prints them,
//	            in its order
//	reference:  list of paper values printed beside ours
//	  - source: string, required — paper, table, row (and paper-values path)
//	    cell:   mapping — parameters selecting the cell(s) (e.g. method, s)
//	    metric: string — which of our metrics it compares to
//	    value:  number — the printed value
//	    row, column: labels — the value's place in paper_table (required
//	            with it, forbidden without)
//	    part:   label — its part of paper_table (required when it lists
//	            parts)
//	    printed: string — the paper's cell as printed when it holds more
//	            than value (e.g. "9.28 ± 2.77")
//	    std:    string — our metric printed as "± std" after ours
//	claims:     list of the paper's claims, each checked as pass/fail
//	  - id:     string, required
//	    statement, source: string — source cites the paper claim tested,
//	            paper-values/<paper>.yaml#claims/c3 (the scoreboard
//	            accounts for every paper claim by it)
//	    check:  mapping — a declarative check (see package claims)
//	    expect: pass | fail | inconclusive — the verdict known on our data
//	    because: string, required with expect — the evidence, quoting
//	            numbers and setup only through references ({evidence},
//	            {dataset.subsets}, {metric:NAME}; package claims, Expand)
//	    defect: mapping — a defect of our check that the verdicts cannot
//	            show (whose failure a verdict is, is derived by package
//	            scoreboard; an attribution: key is refused)
//	      kind: quantifier | threshold | visual-metric | degenerate
//	            (Defects: a quantifier or a threshold of ours goes beyond
//	            the paper's sentence, and the row never decides its
//	            claim; our number for a visual claim; a comparison equal
//	            by construction)
//	      evidence: string, required — why, with references as because:
//	            has
//
// # Collections
//
// A file whose top level has the key collection names other configs
// instead of describing an experiment, so that one command runs a set:
//
//	title:      string, required — what the set regenerates
//	notes:      string
//	collection: list, required, not empty — names of configs beside this
//	            file (huang-table1, or huang-table1.yaml), each listed
//	            once; a member may be a collection itself
//
// No other key is allowed: the members' settings stay in their own files.
// Open reads a config or a collection, Load only a config. A member that
// does not exist is a FILE:LINE: error naming the closest configs;
// package suite expands collections (members in order, each config once)
// and reports a cycle at the line that closes it.
//
// # Grids
//
// Every list under model (c, gamma, sigma, components, energy) and under a
// method's params is a grid axis; the cells of a config are the cartesian
// product of the model axes times, for each method, the product of its
// parameter axes. Each cell has a canonical key that does not depend on key
// order or on how a number was written (0.5 and 5e-1 are the same cell).
//
// # The paper's table
//
// A table the paper prints is regenerated in the paper's layout: the
// config declares it (paper_table), and each reference value names its
// row and column as the paper labels them, so that tables.txt shows every
// cell as runexp's value with the paper's beside it ("255.4 (paper 268)")
// in the paper's rows and columns. The layout is declared here rather
// than derived from ../shared/paper-values at run time, so that a run
// needs only the repository: Parse checks it (every value has a place,
// listed in rows, columns and parts, and no two share one; labels are
// one line of at most MaxLabel characters) and reports a bad one at its
// FILE:LINE, and a test of the shipped configs checks each value against
// the paper-values table its source cites. A label may differ from the
// paper's print where the paper's would mislead beside ours: the paper's
// own method keeps the paper's name for it ("local Gram (Huang et al.)",
// not the paper's "Our Method"), and a row of our stand-in data names
// the group it is read from ("Smile (happy)").
//
// # Errors
//
// Unknown keys, wrong types and impossible values are reported as
// file:line: what was found and what was expected, and so are YAML
// syntax errors.
//
// # Bounds
//
// A config can only make runexp write inside --out and allocate what it
// plainly asks for, with one exception it has to be given leave for: a
// method named external runs the command its command parameter names, and
// that command can do anything its user can. runexp validate lists such
// commands, and run and suite refuse the config unless --allow-external
// is given (docs/external-estimators.md, "Trust"). The file's name (without extension) names its result
// folder and must be a plain name (CheckFileName: no separator, not "."
// or "..", no leading dot), as must experiment.figure_name and any other
// experiment option ending in _name. A file holds one YAML document. It
// expands, aliases included, to at most MaxNodes nodes. Numbers are
// finite, and integers within ±2^53 (so that they survive conversion to
// float64 exactly). The grid has at most runner.DefaultMaxCells cells
// unless runexp --max-cells raises it. What the data and the kernel
// matrix need is estimated from the dataset's options before anything is
// loaded (runner.Validate) and refused beyond the machine's memory.
package config
