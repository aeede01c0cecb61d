package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Identity returns its inputs unchanged: the "Base Line" of Nguyen & De la
// Torre's Fig. 5 and Table 2 ("the method that does nothing; the
// reconstructed images are exactly the same as the input testing images"),
// the error of the corruption itself.
type Identity struct{}

var _ Denoiser = Identity{}

func init() {
	Register(Spec{
		Name:     "identity",
		Title:    "Base Line",
		Doc:      "returns the corrupted inputs unchanged (the error of the corruption itself)",
		Source:   "Nguyen & De la Torre (2008) Fig. 5 and Table 2, BaseLine",
		Does:     Denoises,
		Requires: NeedsX0,
		New:      func(Params) (any, error) { return Identity{}, nil },
	})
}

// Denoise copies in.X0 into dst.
func (Identity) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if in == nil || in.X0 == nil {
		return nil, errors.New("identity: no inputs")
	}
	m, d := in.X0.Dims()
	if in.Model != nil && d != in.Model.Dim() {
		return nil, fmt.Errorf("identity: inputs have %d columns, model was fitted on %d", d, in.Model.Dim())
	}
	useDst(dst, m, d)
	dst.Copy(in.X0)
	return make([]Status, m), nil
}
