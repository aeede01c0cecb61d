package stats

// Verdict is the outcome of a comparison under uncertainty.
type Verdict int

const (
	// Inconclusive: the interval covers the claimed boundary.
	Inconclusive Verdict = iota
	// Pass: the interval lies wholly on the claimed side.
	Pass
	// Fail: the interval lies wholly on the other side.
	Fail
)

func (v Verdict) String() string {
	return [...]string{"INCONCLUSIVE", "PASS", "FAIL"}[v]
}

// Side is the direction a claim asserts for a difference.
type Side int

const (
	// Below claims the difference is less than the bound (A < B + bound).
	Below Side = iota
	// Above claims the difference is greater than the bound.
	Above
)

// Decide returns the verdict of the claim "difference is on side of
// bound" given the difference's interval: PASS when the whole interval is
// strictly on that side, FAIL when it is wholly on the other side (the
// bound included), INCONCLUSIVE when it straddles the bound.
func Decide(iv Interval, side Side, bound float64) Verdict {
	lo, hi := iv.Lo, iv.Hi
	if side == Above {
		switch {
		case lo > bound:
			return Pass
		case hi <= bound:
			return Fail
		}
		return Inconclusive
	}
	switch {
	case hi < bound:
		return Pass
	case lo >= bound:
		return Fail
	}
	return Inconclusive
}
