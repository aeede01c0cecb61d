// Package paperreport writes a reproduction report per paper (issue 39):
// REPORT.md, report.html and a ReScience-style metadata.yaml, built only
// from a results root (each config's claims.json and records.jsonl, and
// where the root has them its manifest.json, tables.md and suite.json),
// the configs, and the paper's paper-values file
// (../shared/paper-values/<paper>.yaml).
//
// # Sections
//
// The title carries [Re] or [¬Re] by one stated rule: [Re] when every
// claim of the paper (its paper-values claims) that a config of the stated
// protocol tests reproduces there, that is every claim of such a config
// that cites it PASSes; [¬Re] otherwise, the claims that decided it
// listed. Then Scope (each paper claim with the verdicts, intervals and
// attributions of the claims that test it, under the stated protocol and
// each reading), Methodology (per config of the stated protocol: its kind,
// data, notes, and the readings run for the paper's ambiguities), Results
// (the tables of tables.md in the paper's layout, the figures' captions),
// What was easy and what was difficult (from the ambiguities and the
// readings), Compute (per config: cells, failures, wall and CPU seconds,
// workers, the machine and the build, as the manifests and suite.json
// record them) and Reproduce (the commands, the revision, the data
// checksums).
//
// # Nothing invented
//
// Every number in a report is copied from those files or is a count of
// their entries, which the builder notes in Report.Counts; where a source
// is absent (baseline/ holds no manifests, tables or figures) the report
// says what is missing instead. TestNumbersTrace checks both.
package paperreport
