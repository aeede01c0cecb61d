package methods

import (
	"fmt"
	"strings"

	"github.com/runexp/runexp/internal/kernel"
)

// Capability is what an estimator does. Every Spec declares it, so an
// experiment asks the registry what an estimator is instead of building one
// and asserting its type; the conformance kit checks that the declaration
// matches what New returns.
type Capability uint8

const (
	// PreImages: New returns a PreImager, which finds z with φ(z) close to
	// a feature-space point Σ_n γ_n φ(x_n). A pre-imager also de-noises,
	// by projecting first (ProjectThenPreImage).
	PreImages Capability = 1 << iota
	// Denoises: New returns a Denoiser, which maps observed inputs to
	// de-noised ones directly and cannot take an arbitrary feature-space
	// point (robust KPCA, linear PCA, the base line).
	Denoises
	// Imputes: the Denoiser reads DenoiseInput.Mask and fills the missing
	// entries it marks; other estimators treat every entry as observed.
	Imputes
)

func (c Capability) String() string {
	var s []string
	for _, x := range []struct {
		c    Capability
		name string
	}{{PreImages, "pre-image"}, {Denoises, "de-noise"}, {Imputes, "impute"}} {
		if c&x.c != 0 {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "+")
}

// Requirement is what an estimator needs from the problem it is handed.
type Requirement uint8

const (
	// NeedsX0: the estimator uses the observed inputs (Problem.X0 or
	// DenoiseInput.X0); it cannot take a feature-space point that has no
	// observed input behind it, such as a cluster centre.
	NeedsX0 Requirement = 1 << iota
	// NeedsRand: the estimator draws from the cell's random stream and
	// fails without one.
	NeedsRand
)

// KernelSupport says which kernels an estimator accepts.
type KernelSupport uint8

const (
	// AnyKernel: the estimator uses kernel values only (local Gram,
	// Honeine–Richard, kernel-free de-noisers), so any kernel will do,
	// a HOG kernel on images included.
	AnyKernel KernelSupport = iota
	// GaussianKernel: the estimator uses the closed form of the Gaussian
	// kernel's gradient (Mika, Tikhonov, Lasso/GPS, Dambreville, RKPCA).
	GaussianKernel
	// DistanceKernel: the estimator inverts feature-space distances into
	// input-space ones (kernel.DistanceInverter: Kwok–Tsang).
	DistanceKernel
)

// Accepts reports whether an estimator with this support can take k.
func (s KernelSupport) Accepts(k kernel.Kernel) bool {
	switch s {
	case GaussianKernel:
		_, ok := gaussianWidth(k)
		return ok
	case DistanceKernel:
		_, ok := k.(kernel.DistanceInverter)
		return ok
	}
	return true
}

func (s KernelSupport) String() string {
	return [...]string{"any kernel", "Gaussian kernel", "distance-invertible kernel"}[s]
}

// Role is what a parameter means to an experiment, beyond its own
// estimator. An experiment that must set a neighbour count from the data
// (Huang et al.'s mean-distance rule) or hand a linear method the cell's
// energy asks for the parameter by role, never by its name.
type Role uint8

const (
	// NoRole: the parameter is the estimator's own business.
	NoRole Role = iota
	// NeighborsRole: a count of nearest training points.
	NeighborsRole
	// EnergyRole: the fraction of variance a linear subspace keeps.
	EnergyRole
	// ComponentsRole: the dimension of a linear subspace.
	ComponentsRole
)

func (r Role) String() string {
	return [...]string{"none", "neighbours", "energy", "components"}[r]
}

// As returns p with role r.
func (p Param) As(r Role) Param {
	p.Role = r
	return p
}

// ZeroMeans returns p with Zero set: what its value 0 stands for.
func (p Param) ZeroMeans(s string) Param {
	p.Zero = s
	return p
}

// Can reports whether the estimator has capability c.
func (s *Spec) Can(c Capability) bool {
	if c == Denoises {
		// Every pre-imager de-noises by projecting first.
		return s.Does&(Denoises|PreImages) != 0
	}
	return s.Does&c == c
}

// Needs reports whether the estimator has requirement r.
func (s *Spec) Needs(r Requirement) bool { return s.Requires&r == r }

// CheckKernel returns an error when the estimator cannot take k.
func (s *Spec) CheckKernel(k kernel.Kernel) error {
	if k == nil || s.Kernels.Accepts(k) {
		return nil
	}
	return fmt.Errorf("%s needs a %s, not %s", s.Name, s.Kernels, k)
}

// RoleParam returns the parameter playing role r, if the estimator has one.
func (s *Spec) RoleParam(r Role) (Param, bool) {
	for _, p := range s.Params {
		if p.Role == r && r != NoRole {
			return p, true
		}
	}
	return Param{}, false
}

// WithRole returns a copy of p in which the parameter playing role r is
// set to v, checked as a config value would be. ok is false, and p is
// returned unchanged, when the estimator has no such parameter.
func (s *Spec) WithRole(p Params, r Role, v any) (out Params, ok bool, err error) {
	par, ok := s.RoleParam(r)
	if !ok {
		return p, false, nil
	}
	cv, err := par.coerce(v)
	if err != nil {
		return nil, true, &ParamError{par.Name, err.Error()}
	}
	out = make(Params, len(p))
	for k, x := range p {
		out[k] = x
	}
	out[par.Name] = cv
	return out, true, nil
}

// NewPreImager builds the estimator as a PreImager. It is an error when the
// estimator does not find pre-images (a direct de-noiser).
func (s *Spec) NewPreImager(p Params) (PreImager, error) {
	if !s.Can(PreImages) {
		return nil, fmt.Errorf("%s is not a pre-image estimator (it does %s)", s.Name, s.Does)
	}
	est, err := s.New(p)
	if err != nil {
		return nil, err
	}
	pi, ok := est.(PreImager)
	if !ok {
		return nil, fmt.Errorf("methods: %s declares pre-images but New returned %T", s.Name, est)
	}
	return pi, nil
}

// NewDenoiser builds the estimator as a Denoiser; a pre-imager projects
// first.
func (s *Spec) NewDenoiser(p Params) (Denoiser, error) {
	est, err := s.New(p)
	if err != nil {
		return nil, err
	}
	d, ok := AsDenoiser(est)
	if !ok {
		return nil, fmt.Errorf("methods: %s declares %s but New returned %T", s.Name, s.Does, est)
	}
	return d, nil
}

// checkDeclared reports a Spec whose declared capabilities do not match
// what New returns with the given parameters. The conformance tests call
// it on every registered estimator.
func (s *Spec) checkDeclared(p Params) error {
	est, err := s.New(p)
	if err != nil {
		return err
	}
	_, pre := est.(PreImager)
	_, den := est.(Denoiser)
	switch {
	case s.Does&PreImages != 0 && !pre:
		return fmt.Errorf("%s declares pre-images, New returned %T", s.Name, est)
	case s.Does&PreImages == 0 && pre:
		return fmt.Errorf("%s returns a PreImager (%T) but does not declare PreImages", s.Name, est)
	case s.Does&PreImages == 0 && !den:
		return fmt.Errorf("%s declares %s, New returned %T, which is no Denoiser", s.Name, s.Does, est)
	}
	return nil
}

// CheckDeclared builds the estimator with its default parameters and
// reports a declaration that does not match what New returns.
func (s *Spec) CheckDeclared() error {
	p, err := s.Bind(map[string]any{})
	if err != nil {
		return err
	}
	return s.checkDeclared(p)
}
