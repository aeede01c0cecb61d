package classify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/classify"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
)

// readings are the options that read one of the paper's listed
// ambiguities otherwise than the stated protocol, or that set the graph's
// same-subject rate (a diagnostic); the zero value of each is the base
// configs' reading.
type readings struct {
	// form is "eq15" (default: the stated objective, methods.LPKPCA's
	// features) or "eq23" (Algorithm 1 as printed, with the objective's
	// sign: methods.LPKPCA.RotateEq23; ambiguity a1).
	form string
	// kernelVectors is "centred" (default: every kernel vector centred as
	// the training Gram matrix, eq. 10) or "raw" (y = Qᵀκ(X, x) as eq. 11
	// and eq. 24 print it, for training and test images and for KPCA and
	// LPKPCA alike; ambiguity a3).
	kernelVectors string
	// split is "stratified" (default: train_per_class or train_fraction of
	// each subject) or "random" (train_fraction of the whole set drawn at
	// random, whatever the subject; ambiguity a5).
	split string
	// classifier is "logistic" (default: LIBLINEAR -s 0, L2-regularised
	// logistic regression, as the text gives it) or "l2svm" (LIBLINEAR
	// -s 2, the L2-loss linear SVM, for the "SVM library" the text names;
	// ambiguity a4).
	classifier string
	// sameRate is, with graph: mixed, the target fraction of each node's k
	// nearest-neighbour choices that join two images of one subject
	// (mixedGraph).
	sameRate float64
}

// loss is the classifier's loss and its LIBLINEAR solver number.
func (o readings) loss() (classify.Loss, int) {
	if o.classifier == "l2svm" {
		return classify.L2SVM, 2
	}
	return classify.Logistic, 0
}

// parseReadings reads the reading options from the experiment section
// (r, whose errors the caller collects) and checks that they fit
// together.
func parseReadings(r *config.Reader) readings {
	return readings{
		form:          r.String("lpkpca_form", "eq15", "eq15", "eq23"),
		kernelVectors: r.String("kernel_vectors", "centred", "centred", "raw"),
		split:         r.String("split", "stratified", "stratified", "random"),
		classifier:    r.String("classifier", "logistic", "logistic", "l2svm"),
		sameRate:      r.Float("same_rate", -1, func(v float64) bool { return v >= 0 && v <= 1 }, "a fraction in [0, 1]"),
	}
}

// checkReadings checks the readings against the other options: same_rate
// goes with graph: mixed and only with it, split: random with
// train_fraction.
func checkReadings(o options, s config.Section) error {
	switch {
	case o.graph == "mixed" && o.sameRate < 0:
		return s.Errorf("graph", "experiment.graph: mixed needs same_rate (the fraction of each image's k-NN choices that join one subject's images, e.g. 0.5)")
	case o.graph != "mixed" && o.sameRate >= 0:
		return s.Errorf("same_rate", "experiment.same_rate: only graph: mixed sets the graph's same-subject rate; this config has graph: %s", o.graph)
	case o.split == "random" && o.trainFraction == 0:
		return s.Errorf("split", "experiment.split: random draws train_fraction of the whole set; give train_fraction (e.g. 0.5), not train_per_class")
	}
	return nil
}

// readingKey names the readings that change a split's fit, for memo keys.
func (o options) readingKey() string {
	return "|" + o.kernelVectors
}

// readingCaption says, for the report's caption, how the run reads the
// ambiguities the options read.
func (o options) readingCaption() string {
	s := ""
	if o.form == "eq23" {
		s += " LPKPCA features as Algorithm 1 prints them (eq. 23: eigenvectors of K̂(I − λL), α = v/√(vᵀ(I − λL)v), y = αᵀκ), not the stated objective's (a1)."
	}
	if o.kernelVectors == "raw" {
		s += " Kernel vectors uncentred, y = Qᵀκ(X, x) as eq. 11 and 24 print it, for training and test images, KPCA and LPKPCA alike (a3)."
	}
	if o.split == "random" {
		s += " Training images drawn at random from the whole set, not per subject (a5)."
	}
	if o.classifier == "l2svm" {
		s += " Classifier the L2-loss linear SVM (LIBLINEAR -s 2) for the text's \"SVM library\", not -s 0's logistic regression (a4)."
	}
	if o.graph == "mixed" {
		s += fmt.Sprintf(" DIAGNOSTIC, not the paper's method: LPKPCA's k-NN graph with each image's farthest other-subject neighbours replaced by its nearest same-subject images until %g of the k-NN choices join one subject.", o.sameRate)
	}
	return s
}

// lpkpcaFeatures returns the first q LPKPCA features of full KPCA
// projections beta under the configured form (a1).
func (o options) lpkpcaFeatures(l *methods.LPKPCA, beta *mat.Dense, q int) (*mat.Dense, error) {
	if o.form == "eq23" {
		return l.RotateEq23(beta, q)
	}
	return l.Rotate(beta, q), nil
}

// rawBeta returns the projections on the first r components of kernel
// rows kx (M×N) left uncentred: y = Alphaᵀκ(X, x), eq. 11 as printed.
// Alpha's columns are orthogonal to the constant vector (they are
// eigenvectors of the centred Gram matrix with positive eigenvalues), so
// this is the centred projection plus the same vector Alphaᵀ(K1/N) for
// every point: a common shift of all features, which a classifier without
// a bias term (LIBLINEAR's default) does not ignore.
func rawBeta(m *methods.KPCA, kx *mat.Dense, r int) *mat.Dense {
	rows, _ := kx.Dims()
	beta := mat.NewDense(rows, r, nil)
	beta.Mul(kx, m.Alpha(r))
	return beta
}

// randomSplit draws train_fraction of all n rows for training (floor, at
// least 1 and at most n−1) with one shuffle of rng, whatever their class:
// the paper's "divided with two parts with equal number" read without
// stratification (a5). Rows keep their data order within each part.
func randomSplit(n int, frac float64, rng *rand.Rand) (datasets.Split, error) {
	k := int(math.Floor(frac * float64(n)))
	if k < 1 || k >= n {
		return datasets.Split{}, fmt.Errorf("%d images; a training fraction of %g leaves no test or no training image", n, frac)
	}
	perm := rng.Perm(n)
	s := datasets.Split{Train: append([]int(nil), perm[:k]...), Test: append([]int(nil), perm[k:]...)}
	sort.Ints(s.Train)
	sort.Ints(s.Test)
	return s, nil
}
