// Package scoreboard builds the reproducibility scoreboard (issue #17,
// part 3): for each paper and each of its claims, the verdict under the
// stated protocol (the base config), under each documented reading (the
// configs whose variant_of names that base, docs/readings.md), with the
// claim's interval where claims.json carries one and a link to the
// evidence, and per paper the counts of the categories below.
//
// A claim is keyed by (base config, claim id): a variant keeps its base's
// claim ids (Build checks it), and variants of variants resolve to the
// first config without variant_of. The category of a claim is decided by
// the base's verdict, then by the reading variants' (diagnostic variants
// are shown and never counted):
//
//   - reproduced as stated: the base config's verdict is PASS;
//   - reproduced only under another documented reading: the base's verdict
//     is FAIL or INCONCLUSIVE and at least one reading variant's is PASS;
//   - not reproduced: the base's verdict is FAIL and no reading passes;
//   - inconclusive: the base's verdict is INCONCLUSIVE and no reading
//     passes;
//   - not evaluated: the base's verdict is NOT-EVALUATED, or the claim is
//     missing from the base's claims.json;
//   - not testable here: a claim of the paper's paper-values file that no
//     config can test, declared with its reason in
//     configs/accounting/<paper>.yaml; counted once per paper claim;
//   - not run: the base config has no folder in the results root.
//
// # Whose failure
//
// A claim not reproduced, or inconclusive, carries in claims.json whose
// failure it is (attribution: paper, data, reading or test; see
// config.Attributions) and why. The board counts them by attribution
// (Split) in the totals, per paper and per table, and the page leads with
// that split: "fails as the paper states it" (paper) apart from "fails
// here: our data / our reading / our test", so that the scoreboard never
// blames a paper for our choice. A claim with no attribution is counted
// as not attributed.
//
// A base row whose source cites no claim of the paper (a figure's shape,
// an ambiguity's scan) and a diagnostic variant's own checks (a
// diagnostic may state claims its base lacks; a reading may not) are
// shown and listed apart (Board.Beyond), never counted.
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
// fails then. The board also counts the base rows by the basis of their
// verdict (Bases): decided by an interval, inconclusive intervals, point
// verdicts with the reason no interval exists.
//
// The verdict is claims.json's "verdict" (PASS, FAIL, INCONCLUSIVE,
// NOT-EVALUATED) or, in files written before claims were three-valued, its
// "status". The outputs depend only on the configs, the paper titles and
// the results read, never on a clock or the order of a directory listing,
// so the same inputs give the same bytes.
package scoreboard
