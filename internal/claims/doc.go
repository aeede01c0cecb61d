// Package claims evaluates a paper's qualitative claims against runexp's
// records as small declarative checks, each ending PASS, FAIL,
// INCONCLUSIVE or NOT-EVALUATED with the numbers behind the verdict.
//
// # Checks
//
// Each claim in a config has a check mapping; type selects one of:
//
//	trend    metric along a parameter moves in a direction
//	           metric, along, direction (increasing | decreasing),
//	           test: spearman (default; min_rho, default 0.8) | endpoints | monotone,
//	           where: {param: value} filter, group: param (or list) checked per value
//	compare  one cell's metric against another's, optionally per value of a
//	         parameter: metric, left, right (selectors), op (< <= > >=),
//	         factor (left op factor × right, default 1), for_all: param
//	value    every selected cell's metric against a constant:
//	           metric, where, op, value, and optionally given: {cell:
//	           {selector}, array: NAME, equals: NUMBER}, which recomputes
//	           the metric on the items where that one cell's per-item
//	           array equals the number ("Tikhonov's accuracy on the
//	           digits Mika misreads"), and against: {selector}, the one
//	           cell the claim implicitly contrasts the judged cells with
//	           (its metric, on the same given items, is the other side
//	           for "cannot discriminate" below: "Honeine–Richard fails
//	           where Local Gram does not")
//	best     one selector has the best metric among alternatives within each
//	         group: metric, among (param), winner (its value), sense (min |
//	         max), for_all: list of params that define a group, where; a
//	         metric pattern (ape_mean_*) makes every metric it matches a
//	         group ("in every condition and overall")
//	ratio    a summary (max, min, mean) of a metric over one selection
//	         against a summary over another: metric, left, right, summary
//	         (or left_summary and right_summary), op, factor, for_all —
//	         e.g. "the worst D-C(n ≥ 15) beats the best least-squares cell"
//
// A selector ({method: Tikhonov, c: 50}) matches records whose parameters
// equal the given values, compared in canonical form, so 5e-1 selects 0.5;
// a list selects any of its values ({method: [Mika et al., Tikhonov]}).
//
// Cells that failed, or metrics that are NaN, make a claim NOT-EVALUATED
// rather than FAIL: a reproduction must not refute a paper with its own
// numerical failures. So does a spearman trend over a constant metric:
// Spearman's ρ of a constant series is undefined (metrics.Spearman), and
// the evidence says so; test: endpoints or monotone judge a flat series.
//
// # Cannot discriminate
//
// A check that compares two quantities equal by construction or to
// rounding on this run cannot tell them apart, so its verdict is neither
// PASS nor FAIL (discriminate.go). The sides of each comparison are: a
// compare or ratio check's left and factor × right (each for_all group);
// a best check's winner and each rival; a value check's judged cell and
// its against: cell (a value check without against: compares a
// measurement with a stated constant, which is no second side); a trend's
// first and last values (test: endpoints), or the least and greatest of
// a monotone series. Two sides l and r are equal when
//
//	|l − r| ≤ max(tol_kind, tol_solver·max(1, |l|, |r|), 1e-9·max(1, |l|, |r|))
//
// where 1e-9 relative is far above float64 rounding of the sums and means
// behind a metric and far below any effect a paper states, tol_kind is
// the kind's resolution of a metric's unit where it declares one
// (Options.Tolerance: kkcluster's pre-image distances, a thousandth of a
// grey level on the 0–255 scale), and tol_solver the stopping tolerance of
// the iterative estimators whose output the sides measure (the cells'
// tol parameter: A&H Fig. 5's fixed-point spreads). Where the verdict
// rests on equal sides (any comparison is equal, whatever the op: two
// values within the tolerance are not known to be in any order) Status,
// Verdict and PointVerdict are INCONCLUSIVE and CannotDiscriminate (JSON
// cannot_discriminate) states both values and the tolerance; only a
// comparison whose sides are apart and which refutes the claim keeps the
// FAIL.
//
// # Controls
//
// Every check kind, with each test (spearman, endpoints, monotone) and
// each interval (paired BCa bootstrap, Student's t over few items, the
// paired t over splits, the bootstrap of one cell's statistic, with and
// without given:), is run in controls_test.go on a synthetic positive
// control (PASS), a negative control (FAIL, the claim or effect reversed)
// and a control at the threshold (INCONCLUSIVE: an interval covering the
// boundary, or, for a point verdict, equal sides).
//
// # Intervals
//
// Where the cells of a compare or ratio check hold per-item scores for
// its metric (Options.Items: the kind says which array and which
// statistic), the claim also gets an interval verdict: the paired BCa
// bootstrap (package stats) of left − factor·right, resampling the test
// items shared by every compared cell and recomputing the claimed
// statistic on both sides, seeded from the root seed and the claim id.
// PASS when the 95% interval lies on the claimed side of zero, FAIL on the
// other, INCONCLUSIVE when it covers zero (docs/exit-status.md).
//
// A best check gets one where every candidate has per-item scores: the
// paired bootstrap of winner − rival for each other candidate, all rivals
// of a group on the same resampled items; PASS when every interval lies
// strictly on the claimed side of zero, FAIL when one lies strictly on
// the other (the winner beaten, excluding zero), INCONCLUSIVE otherwise;
// the reported interval is the closest rival's (best.go). A metric may be
// a statistic of several per-item arrays read together (ItemStat.Joint: a
// ratio of sums), recomputed on each resample.
//
// A value check gets an interval verdict where its metric is a paired
// statistic of arrays within each judged record (ItemStat.Paired: the
// classify kind's gains, LPKPCA − KPCA on the same splits): Student's
// t-interval over the items (splits) of the per-item difference, or for a
// min or max over terms the fold of Bonferroni-simultaneous t-intervals,
// judged against the check's value. The items are 5–20 splits, where a
// bootstrap under-covers (Paired says by how much); the t-interval needs
// no random stream. Where the metric is instead a statistic of one
// record's per-item array (a mean APE, an accuracy), a value check gets
// the BCa bootstrap of that statistic over the items, judged against the
// value (value.go).
//
// A trend check gets one where its cells share their items (trend.go):
// the bootstrap, all cells on the same resampled items, of the endpoints'
// difference, of each step of a monotone trend, or of Spearman's ρ
// against min_rho.
//
// Where there is no interval the verdict is the point verdict and Basis
// says why none exists: the kind's reason (Options.PointReason: one
// kernel matrix, one synthetic data set, a count from the sizes) or what
// the records lack. An effect near chance or a count over few items gets
// an interval over its items instead where the records allow:
// kkcluster's purity and purity gain are recomputed from the per-image
// poses and clusters on each resample of images (ItemStat.Joint), so a
// gain of two images of 105 is INCONCLUSIVE, not a point PASS. An INCONCLUSIVE interval verdict states the smallest
// departure from its boundary its items could decide (the half-width) and
// about how many items the observed departure would need (detectable).
//
// # Explanations
//
// A claim's because: text quotes measured numbers and setup facts only
// through references filled in when the claim is judged (because.go,
// Expand): {evidence}, {verdict}, {point}, {interval}, {detectable},
// {cannot_discriminate}, {metric:NAME}, and config paths such as {dataset}, {dataset.subsets},
// {corruption}, {model.c}, {experiment.splits}. Check rejects an unknown
// reference; cmd/runexp's TestBecauseTexts rejects a literal number the
// evidence lacks.
package claims
