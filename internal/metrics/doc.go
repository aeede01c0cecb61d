// Package metrics computes the error and stability measures the papers
// report, and the rank statistics the claims and experiments share.
//
// # Overview
//
//	Renormalize          min–max map of a pre-image onto the clean image's range
//	                     (Abrahamsen & Hansen §6: "all pre-images are re-normalized
//	                     to the range of the original image before the squared error
//	                     is calculated")
//	MSE                  mean squared error per pixel
//	MaskedSSE            squared error over the deleted entries only (Nguyen & De la
//	                     Torre Table 1)
//	Percentile           linear interpolation between order statistics (R's type 7,
//	                     numpy's default), for the 5th–95th percentile bands of
//	                     Abrahamsen & Hansen Fig. 4
//	MeanPairwiseDistance mean Euclidean distance over all pairs of a set of
//	                     solutions, the stability measure of Abrahamsen & Hansen Fig. 5
//	GreedyClusters       solutions grouped within a radius: the "distinct pre-images"
//	                     of Abrahamsen & Hansen Fig. 3
//	BlockContrast        within- against between-label kernel values (Huang et al. Fig. 4)
//	Ranks, Spearman      average ranks and Spearman's ρ
//
// # Ranks, ties and constant input
//
// There is one rule for ties: tied values share the mean of the ranks they
// span (Ranks). Spearman's ρ is the Pearson correlation of those ranks. A
// constant input has no order, so ρ is undefined: Spearman returns NaN, never
// 0, and each caller says what an undefined ρ means to it (a trend claim is
// NOT-EVALUATED with the reason; an experiment records the NaN).
package metrics
