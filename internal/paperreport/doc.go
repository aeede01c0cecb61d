// Package paperreport writes a reproduction report per paper in the form
// of a ReScience C article: REPORT.md and report.html, with an appendix of
// the long tables (APPENDIX.md, appendix.html), the figures, the
// article's metadata.yaml (the ReScience template's fields) and its
// bibliography.bib. A report is built only from a results root (each
// config's claims.json and records.jsonl, and where the root has them
// its manifest.json, tables.md, figures, suite.json and, in a baseline,
// revision.json), the configs, the paper's paper-values file
// (shared/paper-values/<paper>.yaml), the registries of estimators,
// experiment kinds and datasets, and references.bib.
//
// # What it renders, and what decides it
//
// The report renders what package scoreboard decides and decides nothing
// itself: each paper claim's outcome under the stated protocol and under
// the paper's one assignment of readings (one reading per listed
// ambiguity, chosen from the printed values), whose failure a claim not
// reproduced is, the other readings' verdicts (sensitivity, never
// counted), the evidence behind each, and the [Re], [¬Re] or [Re?]
// headline with its rule (scoreboard.Headline). metadata.yaml carries the
// journal's two marks: [¬Re] when a claim fails as the paper states it,
// [Re] otherwise, the [Re?] of our pages kept under runexp.headline.
//
// # Sections
//
// Introduction: what the paper claims, each claim's outcome, and the
// reading of each ambiguity that is counted. Implementation: the source
// file of each estimator, kind and dataset loader with what it implements
// (methods.Spec.Source, runner.Kind.Doc), the libraries of go.mod, the
// compute the manifests record, the revision that computed the results
// and the commands that rerun them. Methodology: per config of the stated
// protocol its data and the settings its cells ran with, read from the
// records (a tuned value with the grid it came from: settingsOf), and the
// ambiguities with the readings run. Results: the paper's tables complete
// in the paper's layout (package tables), the figures (copied into the
// report's folder, or drawn from the records where the root keeps none:
// recordFigures), the checks with their values and intervals. Discussion:
// facts the detectors find in the records (detect.go: a method worse than
// the noisy input it de-noises, an output that does not follow the grid,
// a solver at its iteration cap), the printed values ours are far from,
// and per claim not reproduced as stated its evidence under every config
// that bears on it. References: the entries of references.bib the text
// cites ([@key]), the one place bibliographic details are kept.
//
// # Nothing invented
//
// Every number in a report is copied from those sources or is a count or
// a derivation of them that the builder notes in Report.Counts;
// TestNumbersTrace checks every number of every report built from the
// committed baseline. Where a source is absent the report says what is
// missing instead.
package paperreport
