// Package catalog registers runexp's datasets with the runner: the real
// data sets of the five papers (USPS, Yale B, the original Yale faces, the
// two CMU PIE sets, Oil Flow, ORL, Scene-15 as GIST descriptors) and the
// seeded synthetic ones that need no data root (two-rings,
// synthetic-images). Importing it for its side effects, as package
// experiments does, makes them available to configs.
//
// Each dataset reads its options from the config's dataset section (Check
// reports a bad option at its line before anything runs) and loads through
// internal/datasets, which holds every loader and data preparation step;
// this package only maps options onto them. Derived features that take
// minutes to compute (the Scene-15 GIST descriptors) are shared within a
// process through runner.Memo and kept across runs in the run cache
// (featurecache.go).
//
//	two-rings         synthetic two noisy (partial) rings in 2-D, seeded
//	synthetic-images  seeded labelled images (classes × groups), optional test split
//	usps              USPS digits 16×16, seeded choice per digit
//	yaleb             Extended Yale B cropped faces by illumination subset
//	yalefaces         original Yale faces, labels condition or subject
//	pie10             CMU PIE 32×32, 10 subjects: expressions or poses × flashes
//	pie68             CMU PIE frontal faces, 68 subjects × 42 lightings
//	oilflow           Bishop & James's three-phase oil flow data
//	orl               ORL / AT&T faces
//	scene15           Scene-15 as 512-d GIST descriptors
package catalog
