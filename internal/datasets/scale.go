package datasets

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Rescale maps every entry of x linearly from the range [from[0], from[1]]
// onto [to[0], to[1]], in place: v ↦ to[0] + (v−from[0])/(from[1]−from[0])·(to[1]−to[0]).
// The USPS files hold [−1, 1] with background −1, and scale: [0, 1] puts the
// background at 0, where an ℓ1 penalty means "blank"; the synthetic images
// are drawn in [0, 1] and scaled the same way. With from = [−1, 1] the map is
// lo + (v+1)/2·(hi−lo), and with from = [0, 1] it is lo + v·(hi−lo), bit for
// bit (the subtraction of 0 and the divisions by 1 and 2 are exact).
func Rescale(x *mat.Dense, from, to [2]float64) error {
	if !(from[1] > from[0]) || !(to[1] > to[0]) {
		return fmt.Errorf("datasets: rescale from %v to %v: want ranges [low, high] with low < high", from, to)
	}
	x.Apply(func(_, _ int, v float64) float64 {
		return to[0] + (v-from[0])/(from[1]-from[0])*(to[1]-to[0])
	}, x)
	return nil
}
