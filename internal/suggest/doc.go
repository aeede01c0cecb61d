// Package suggest finds, among known names, those closest to a name that
// is not one of them, for the "did you mean" part of an error: a
// misspelt subcommand, config, experiment kind, estimator, dataset or
// metric.
//
// # Overview
//
// Closest ranks candidates by three tests, in this order: an edit
// distance (optimal string alignment: insertions, deletions,
// substitutions and transpositions of neighbours, each costing one)
// within a quarter of the name's length (at least one); every word of the name (words are
// split at '-', '_' and '.') found in the candidate, a word matching
// within one edit when it has four letters or more and the edit leaves its
// digits alone (table1 is not table2); and one of the two
// containing the other. Candidates that pass none are not suggested, so
// a name unlike every candidate gets no suggestion rather than a
// misleading one.
//
//	suggest.Closest("valdiate", []string{"run", "validate", "list"}, 3)
//	// [validate]
//	suggest.Closest("zheng-table2", configNames, 5)
//	// [zheng-lai-table2 zheng-lpkpca-table2 …]
package suggest
