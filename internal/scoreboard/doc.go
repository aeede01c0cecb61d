// Package scoreboard builds the reproducibility scoreboard: for each paper
// and each of its claims, the verdict under the stated protocol (the base
// configs), under one assignment of readings of the paper's listed
// ambiguities, and under every other documented reading (the configs
// whose variant_of leads to a base; docs/readings.md), with the claim's
// interval where claims.json carries one and a link to the evidence, and
// per paper the counts of the categories below. It is the one place
// where the outcome of a claim, whose failure it is and the reading
// assignment are decided; the pages and the paper reports render what it
// decided.
//
// A claim is keyed by (base config, claim id): a variant keeps its base's
// claim ids (Build checks it), and variants of variants resolve to the
// first config without variant_of.
//
// # One reading per ambiguity
//
// A paper is counted under two protocols, each reading every listed
// ambiguity one way for the whole paper: the stated protocol, and the
// paper's Assignment: per ambiguity, the reading that fits the paper's
// printed values clearly better than the stated protocol in more than
// half of the printed tables on which both ran (the reading fit, per
// printed table and per unit, never pooled: fit.go), else the stated
// protocol's reading (AssignmentRule, assign.go). The rule reads no
// verdict. A reading's name is its config's name after the config it
// varies (zheng-lai-table1-clip reads a1 as "clip"), so one reading is
// recognised in every table that runs it (ReadingSet).
//
// The counted verdict of a row is its verdict under the assignment: the
// variant of its table that reads the assigned readings bearing on it; the
// base's where the assignment reads nothing bearing on the table, or where
// the reading config leaves the row out (a reading changes only what it
// reads); not run where the table lists an ambiguity the assignment reads
// otherwise and runs no such variant. Every other reading (another
// reading of a listed ambiguity, a post-hoc variant, the stated protocol
// where the assignment differs) is sensitivity (Account.Sensitivity):
// shown, never counted; one that fails a claim the stated protocol passes
// is marked as flipping it.
//
// The category of a claim (outcome.go) follows from its rows:
//
//   - reproduced as stated: every row passes under the stated protocol and
//     under the assignment;
//   - reproduced only under another documented reading: every row passes
//     under the assignment, and not under the stated protocol;
//   - not reproduced: a row fails under the assignment;
//   - inconclusive: none fails, one is inconclusive;
//   - not evaluated: a row is NOT-EVALUATED, or missing from claims.json;
//   - not testable here: a claim of the paper's paper-values file that no
//     config can test, declared with its reason in
//     configs/accounting/<paper>.yaml; counted once per paper claim;
//   - not run: a row's config under the assignment has no folder in the
//     results root.
//
// Rows that go beyond the paper's sentence are shown and never counted:
// a row whose config declares beyond: (a group or quantity the paper does
// not have) or a quantifier or threshold of ours (defect: quantifier,
// threshold), a base row whose source cites no claim of the paper (a
// figure's shape, an ambiguity's scan), and a diagnostic variant's own
// checks (Board.Beyond). Diagnostic variants are shown, never counted.
//
// # Whose failure
//
// A claim not reproduced, or inconclusive, is attributed (paper, data,
// reading, test or undetermined) by Derivation's rules from the verdicts
// of its base and variants and the configs' reads:, diagnostic:,
// post_hoc:, moves:, stand_in: and defect: declarations; no config states
// an attribution. The board counts them by attribution (Split) in the
// totals, per paper and per table, so that the scoreboard never blames a
// paper for our choice. An undetermined one says what would decide it.
//
// # Accounting
//
// Every claim of a paper's paper-values file (../shared/paper-values/
// <paper>.yaml, claims c1, c2, …) is accounted for (account.go): tested by
// the base rows whose source cites it (paper-values/<paper>.yaml#claims/c3),
// or declared in the paper's accounting file either as an aggregate of
// other claims (counted as one more row, in the category its rows
// combine to) or as not testable here. A claim none of these covers is
// listed as not accounted for; cmd/runexp's TestEveryPaperClaimAccounted
// fails then. For a claim not reproduced as stated, Account.Evidence
// lists every result bearing on it, each with its role. The board also
// counts the base rows by the basis of their verdict (Bases): decided by
// an interval, inconclusive intervals, point verdicts with the reason no
// interval exists.
//
// The verdict is claims.json's "verdict" (PASS, FAIL, INCONCLUSIVE,
// NOT-EVALUATED) or, in files written before claims were three-valued, its
// "status". The outputs depend only on the configs, the paper titles and
// the results read, never on a clock or the order of a directory listing,
// so the same inputs give the same bytes.
package scoreboard
