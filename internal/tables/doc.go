// Package tables builds the tables every experiment's report shares and
// renders a report's tables as tables.txt and tables.md.
//
// # Overview
//
// An experiment kind draws its own figures and tables from the records
// (runner.Instance.Report). Around them, every report has the same
// tables, built here from the config, the records and the claims'
// verdicts: the failed and partial cells with their reasons, the
// problems of the report stage, the paper's printed values beside ours
// (the config's reference entries, each citing its source in
// ../shared/paper-values) and the verdicts of the paper's claims.
// Render writes them after the kind's tables, in the order Build gives.
package tables
