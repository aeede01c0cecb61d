// Package metrics computes the error and stability measures the papers
// report.
//
// # Overview
//
//	Renormalize          min–max map of a pre-image onto the clean image's range
//	                     (Abrahamsen & Hansen §6: "all pre-images are re-normalized
//	                     to the range of the original image before the squared error
//	                     is calculated")
//	MSE                  mean squared error per pixel
//	Percentile           linear interpolation between order statistics (R's type 7,
//	                     numpy's default), for the 5th–95th percentile bands of
//	                     Abrahamsen & Hansen Fig. 4
//	MeanPairwiseDistance mean Euclidean distance over all pairs of a set of
//	                     solutions, the stability measure of Abrahamsen & Hansen Fig. 5
package metrics
