package methods

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ImputeMean fills each missing entry with the mean of the observed values
// of its attribute over the data set: the "mean" heuristic of Nguyen & De la
// Torre Table 1 (after Sanguinetti & Lawrence 2006). See impute.go for the
// transductive Denoiser convention.
type ImputeMean struct{}

var _ Denoiser = ImputeMean{}

func init() {
	Register(Spec{
		Name:     "impute-mean",
		Title:    "mean",
		Doc:      "fill missing entries with the attribute's mean over the observed entries (transductive)",
		Source:   "Nguyen & De la Torre (2008) §4.2 Table 1, mean heuristic",
		Does:     Denoises | Imputes,
		Requires: NeedsX0,
		New:      func(Params) (any, error) { return ImputeMean{}, nil },
	})
}

// Denoise returns in.X0 with its missing entries replaced by column means.
func (ImputeMean) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	st, done, err := startImpute("impute-mean", dst, in)
	if err != nil || done {
		return st, err
	}
	m, _ := in.X0.Dims()
	mu, err := observedMeans(in.X0, in.Mask)
	if err != nil {
		return nil, fmt.Errorf("impute-mean: %w", err)
	}
	for i := 0; i < m; i++ {
		row := dst.RawRowView(i)
		for j, o := range in.Mask.RawRowView(i) {
			if o == 0 {
				row[j] = mu[j]
			}
		}
	}
	return st, nil
}
