// Package tables builds the tables every experiment's report shares and
// renders a report's tables as tables.txt and tables.md.
//
// # Overview
//
// An experiment kind draws its own figures and tables from the records
// (runner.Instance.Report). Around them, every report has the same
// tables, built here from the config, the records and the claims'
// verdicts, in the order a reader with the paper open wants them:
//
//   - the paper's table in the paper's layout (the config's paper_table),
//     one per part, each cell runexp's value with the paper's beside it,
//     "255.4 (paper 268)", and a note on a value, a row or a column that a
//     claim reads which does not reproduce as the paper states it;
//   - right after each, the 95% interval of each of runexp's values in
//     the same layout (claims.CellInterval: the claims' interval methods
//     applied to one cell), with the method and what it bounds;
//   - the kind's own tables, the long form with one row per grid cell
//     (records.csv holds every metric);
//   - the failed and partial cells with their reasons, and the problems
//     of the report stage;
//   - the verdicts of the paper's claims, "FAIL (expected)" for a known
//     non-reproduction, with the evidence and the reason in notes.
//
// A config with reference values but no paper_table gets them one per
// line instead ("runexp beside the paper"). Render writes tables.txt,
// every line within report.FileWidth (80) columns (a table too wide is
// laid out a row at a time), and tables.md.
package tables
