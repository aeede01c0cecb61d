// Package stats gives the uncertainty of runexp's numbers: bootstrap
// confidence intervals for a method's mean score over test items and
// corruption repeats, and three-valued verdicts for paired comparisons
// between methods.
//
// # Resampling unit
//
// A score table is items × repeats: test item i under corruption draw r.
// The draws are paired across methods (the same seed gives every method
// the same corrupted input), and an item's repeats share the item, so they
// are not independent of each other. The bootstrap therefore resamples
// items (a cluster bootstrap), each carrying the mean over its repeats:
// the interval covers the population of test items under the corruption
// distribution, which is what "method A is better than B on this data"
// claims. With one repeat it is the ordinary bootstrap of the mean.
//
// # Interval
//
// The interval is the bias-corrected and accelerated (BCa) bootstrap
// interval of Efron (1987), "Better bootstrap confidence intervals", JASA
// 82(397): 171–185, eqs. 2.3–2.4 and the jackknife acceleration of §3.
// Plain percentile intervals under-cover for skewed per-item errors
// (squared errors are right-skewed) at the 20–100 items runexp's tables
// hold; BCa corrects the skew to second order. The tests check coverage
// on seeded simulations with a known mean.
//
// # Verdicts
//
// A claim "A < B" is PASS when the interval of the paired difference
// mean(A − B) lies below zero, FAIL when it lies above zero, and
// INCONCLUSIVE when it covers zero. At level 0.95 a null difference is
// INCONCLUSIVE in about 95% of draws, and PASS or FAIL in about 2.5% each.
package stats
