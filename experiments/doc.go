// Package experiments registers every experiment kind and dataset with the
// runner. Importing it (for its side effects) makes them available to the
// CLI; each kind lives in its own package below this one, and the datasets
// in package catalog.
//
//	classify      Zheng et al. (2015) Tables 1–6, Figs. 2, 4, 6: KPCA vs LPKPCA features + logistic regression
//	denoise       Abrahamsen & Hansen Figs. 4 and 6: de-noising error bands, example images
//	distortion    Abrahamsen & Hansen Fig. 2: feature-space neighbours drawn in input space
//	kkcluster     Huang, Tian & De la Torre Figs. 4–6: kernel k-means (raw, HOG), pre-images of the centres
//	lgdenoise     Huang, Tian & De la Torre Table 1 / Fig. 7: de-noising per group, APE and SNR
//	localminima   Abrahamsen & Hansen Fig. 3: Mika's fixed point from every training point
//	matrix        the cross-paper matrix: every de-noising estimator on every de-noising benchmark, ranks and paired wins
//	missing       Nguyen & De la Torre Table 1: imputing deleted Oil Flow attributes over repetitions
//	robust        Nguyen & De la Torre Fig. 5, Table 2: occluded / noisy faces, region-wise errors, validation tuning
//	stability     Abrahamsen & Hansen Fig. 5: spread of pre-images from random training starts
package experiments

import (
	// The datasets register themselves in init.
	_ "github.com/runexp/runexp/experiments/catalog"

	// Experiment kinds register themselves in init.
	_ "github.com/runexp/runexp/experiments/classify"
	_ "github.com/runexp/runexp/experiments/denoise"
	_ "github.com/runexp/runexp/experiments/distortion"
	_ "github.com/runexp/runexp/experiments/kkcluster"
	_ "github.com/runexp/runexp/experiments/lgdenoise"
	_ "github.com/runexp/runexp/experiments/localminima"
	_ "github.com/runexp/runexp/experiments/matrix"
	_ "github.com/runexp/runexp/experiments/missing"
	_ "github.com/runexp/runexp/experiments/robust"
	_ "github.com/runexp/runexp/experiments/stability"
)
