package methods

import (
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// toyPreImager and toyDenoiser are the smallest estimators of each
// capability; toyNeither is neither.
type (
	toyPreImager struct{}
	toyDenoiser  struct{}
	toyNeither   struct{}
)

func (toyPreImager) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) { return nil, nil }
func (toyDenoiser) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	return nil, nil
}

// toySpec declares does and builds est.
func toySpec(does Capability, est any) *Spec {
	return &Spec{Name: "toy", Does: does, New: func(Params) (any, error) { return est, nil }}
}

// TestCapabilityDeclared: checkDeclared accepts a Spec whose New returns
// what it declares and names each mismatch — a pre-imager declared but
// not returned, one returned but not declared, a de-noiser declared but
// neither returned — and passes on New's own error.
func TestCapabilityDeclared(t *testing.T) {
	for _, c := range []struct {
		name string
		spec *Spec
		want string // "" for no error
	}{
		{"pre-imager", toySpec(PreImages, toyPreImager{}), ""},
		{"de-noiser", toySpec(Denoises, toyDenoiser{}), ""},
		{"imputer", toySpec(Denoises|Imputes, toyDenoiser{}), ""},
		{"pre-images not returned", toySpec(PreImages, toyDenoiser{}), "toy declares pre-images, New returned methods.toyDenoiser"},
		{"pre-imager undeclared", toySpec(Denoises, toyPreImager{}), "toy returns a PreImager (methods.toyPreImager) but does not declare PreImages"},
		{"no de-noiser", toySpec(Denoises|Imputes, toyNeither{}), "toy declares de-noise+impute, New returned methods.toyNeither, which is no Denoiser"},
		{"New fails", &Spec{Name: "toy", Does: PreImages, New: func(Params) (any, error) { return nil, errors.New("boom") }}, "boom"},
	} {
		err := c.spec.checkDeclared(nil)
		if (c.want == "") != (err == nil) || (err != nil && err.Error() != c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestNewPreImagerDenoiser: NewPreImager refuses a de-noiser by its
// declaration and a Spec that lies; NewDenoiser wraps a pre-imager so it
// projects first, and refuses a value that is neither.
func TestNewPreImagerDenoiser(t *testing.T) {
	if _, err := toySpec(Denoises, toyDenoiser{}).NewPreImager(nil); err == nil || err.Error() != "toy is not a pre-image estimator (it does de-noise)" {
		t.Errorf("NewPreImager(de-noiser): %v", err)
	}
	if _, err := toySpec(PreImages, toyNeither{}).NewPreImager(nil); err == nil || err.Error() != "methods: toy declares pre-images but New returned methods.toyNeither" {
		t.Errorf("NewPreImager(lying spec): %v", err)
	}
	if p, err := toySpec(PreImages, toyPreImager{}).NewPreImager(nil); err != nil || p != (toyPreImager{}) {
		t.Errorf("NewPreImager = %v, %v", p, err)
	}
	d, err := toySpec(PreImages, toyPreImager{}).NewDenoiser(nil)
	if _, ok := d.(ProjectThenPreImage); err != nil || !ok {
		t.Errorf("NewDenoiser(pre-imager) = %T, %v; want ProjectThenPreImage", d, err)
	}
	if d, err := toySpec(Denoises, toyDenoiser{}).NewDenoiser(nil); err != nil || d != (toyDenoiser{}) {
		t.Errorf("NewDenoiser(de-noiser) = %v, %v", d, err)
	}
	if _, err := toySpec(Denoises, toyNeither{}).NewDenoiser(nil); err == nil || err.Error() != "methods: toy declares de-noise but New returned methods.toyNeither" {
		t.Errorf("NewDenoiser(neither): %v", err)
	}
	boom := &Spec{Name: "toy", Does: PreImages, New: func(Params) (any, error) { return nil, errors.New("boom") }}
	if _, err := boom.NewPreImager(nil); err == nil || err.Error() != "boom" {
		t.Errorf("NewPreImager passes on New's error: %v", err)
	}
	if _, err := boom.NewDenoiser(nil); err == nil || err.Error() != "boom" {
		t.Errorf("NewDenoiser passes on New's error: %v", err)
	}
}

// TestCanNeedsKernels: every pre-imager can de-noise, not the other way
// round; requirements are tested as a whole set; kernel support as
// documented (Kwok–Tsang's distance inversion needs a kernel.DistanceInverter).
func TestCanNeedsKernels(t *testing.T) {
	pre, den := toySpec(PreImages, nil), toySpec(Denoises|Imputes, nil)
	for _, c := range []struct {
		s    *Spec
		c    Capability
		want bool
	}{
		{pre, PreImages, true}, {pre, Denoises, true}, {pre, Imputes, false},
		{den, PreImages, false}, {den, Denoises, true}, {den, Imputes, true}, {den, Denoises | Imputes, true},
	} {
		if got := c.s.Can(c.c); got != c.want {
			t.Errorf("%s.Can(%s) = %v, want %v", c.s.Does, c.c, got, c.want)
		}
	}
	s := &Spec{Requires: NeedsX0}
	if !s.Needs(NeedsX0) || s.Needs(NeedsRand) || s.Needs(NeedsX0|NeedsRand) {
		t.Errorf("Needs of %v wrong", s.Requires)
	}
	g, err := kernel.NewGaussian("c", 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		support KernelSupport
		k       kernel.Kernel
		want    string
	}{
		{AnyKernel, kernel.Linear{}, ""},
		{GaussianKernel, g, ""},
		{GaussianKernel, nil, ""}, // no kernel chosen yet
		{GaussianKernel, kernel.Linear{}, "toy needs a Gaussian kernel, not linear"},
		{DistanceKernel, g, ""},
		{DistanceKernel, kernel.Polynomial{Degree: 2, Offset: 1}, "toy needs a distance-invertible kernel, not "},
	} {
		err := (&Spec{Name: "toy", Kernels: c.support}).CheckKernel(c.k)
		if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%s with %v: %v, want %q", c.support, c.k, err, c.want)
		}
	}
	for c, want := range map[Capability]string{0: "none", PreImages: "pre-image", Denoises | Imputes: "de-noise+impute", PreImages | Denoises | Imputes: "pre-image+de-noise+impute"} {
		if c.String() != want {
			t.Errorf("Capability(%d) = %q, want %q", c, c.String(), want)
		}
	}
}
