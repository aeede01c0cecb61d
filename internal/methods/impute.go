package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// The imputers (ImputeMean, ImputeNN, PPCA, RKPCAImpute) are Denoisers of a
// transductive kind: DenoiseInput.X0 is an incomplete data set and Mask
// marks its observed entries; each imputer fills the missing entries from
// the observed entries of X0 itself (Nguyen & De la Torre §4.2: missing
// attributes in the training data) and returns X0 with only the missing
// entries replaced. The model, if given, only fixes the dimension (and,
// for RKPCAImpute, the kernel). With no mask nothing is missing and the
// output is X0.

// checkImpute validates an imputer's input and returns its size.
func checkImpute(name string, in *DenoiseInput) (m, d int, err error) {
	if in == nil || in.X0 == nil {
		return 0, 0, fmt.Errorf("%s: no data to impute", name)
	}
	m, d = in.X0.Dims()
	if in.Model != nil && d != in.Model.Dim() {
		return 0, 0, fmt.Errorf("%s: inputs have %d columns, model was fitted on %d", name, d, in.Model.Dim())
	}
	if err := checkMask(in.Mask, m, d); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", name, err)
	}
	return m, d, nil
}

// startImpute is every imputer's opening: it checks in (checkImpute),
// copies X0 into dst and returns one Status per row. done is set when
// nothing is missing (no mask): dst is then the answer.
func startImpute(name string, dst *mat.Dense, in *DenoiseInput) (st []Status, done bool, err error) {
	m, d, err := checkImpute(name, in)
	if err != nil {
		return nil, false, err
	}
	useDst(dst, m, d)
	dst.Copy(in.X0)
	return make([]Status, m), in.Mask == nil, nil
}

// observedMeans returns, per column, the mean of the observed entries and
// whether the column has any.
func observedMeans(x, mask *mat.Dense) ([]float64, error) {
	m, d := x.Dims()
	mu := make([]float64, d)
	cnt := make([]int, d)
	for i := 0; i < m; i++ {
		xi := x.RawRowView(i)
		for j := range mu {
			if mask == nil || mask.At(i, j) != 0 {
				mu[j] += xi[j]
				cnt[j]++
			}
		}
	}
	for j := range mu {
		if cnt[j] == 0 {
			return nil, fmt.Errorf("column %d has no observed entry", j)
		}
		mu[j] /= float64(cnt[j])
	}
	return mu, nil
}

// errNoObserved marks a row without any observed entry.
var errNoObserved = errors.New("no observed entry in the row")
