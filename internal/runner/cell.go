package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/suggest"
)

// Cell is one point of a config's grid.
type Cell struct {
	// Index is the cell's position in grid order.
	Index int
	// Key is the canonical key; Seed the stream derived from it.
	Key  string
	Seed uint64
	// Model is the model point; Kernel is its kernel (nil if none given).
	Model  config.ModelPoint
	Kernel kernel.Kernel
	// Method is the estimator, or nil when the config lists none.
	Method *BoundMethod
	// Params is the flat parameter map written to the record.
	Params map[string]any
	// stream is the key the cell's random stream derives from: its key
	// as bound, kept when Kind.KeyParams shows another value in Key.
	stream string
	// Stages, when set, is the number of parts of each stage of the
	// cell (Kind.Parts): the cell is computed in parts (parts.go).
	Stages []int
}

// BoundMethod is an estimator with checked parameters.
type BoundMethod struct {
	Spec   *methods.Spec
	Label  string
	Params methods.Params
	// Index is the method's position in the config.
	Index int
}

// NewPreImager builds a fresh estimator for the cell as a PreImager
// (estimators hold no state between calls, but a fresh one keeps cells
// independent); it is an error for a direct de-noiser.
func (b *BoundMethod) NewPreImager() (methods.PreImager, error) { return b.Spec.NewPreImager(b.Params) }

// NewDenoiser builds a fresh estimator for the cell as a Denoiser (a
// pre-imager projects first).
func (b *BoundMethod) NewDenoiser() (methods.Denoiser, error) { return b.Spec.NewDenoiser(b.Params) }

// Rand returns the cell's random stream.
func (c *Cell) Rand() *rand.Rand {
	if c.stream != "" {
		return NewRand(c.Seed, c.stream)
	}
	return NewRand(c.Seed, c.Key)
}

// rekey shows params in the cell's key and record (Kind.KeyParams),
// keeping its seed and random stream.
func (c *Cell) rekey(params map[string]any) {
	if c.stream == "" {
		c.stream = c.Key
	}
	c.Params, c.Key = params, config.CanonicalKey(params)
}

// rekeyCells applies the kind's KeyParams to every cell of c, refusing a
// grid whose keys then coincide.
func rekeyCells(c *config.Config, k *Kind, opts any, cells []*Cell) error {
	if k.KeyParams == nil {
		return nil
	}
	seen := map[string]int{}
	for _, cell := range cells {
		if p := k.KeyParams(c, opts, cell); p != nil {
			cell.rekey(p)
		}
		if prev, dup := seen[cell.Key]; dup {
			return c.Errorf(0, "cells %d and %d both run %s: the experiment sets the value that told them apart; remove one", prev, cell.Index, cell.Key)
		}
		seen[cell.Key] = cell.Index
	}
	return nil
}

// DeriveSeed hashes the root seed and a key into a stream seed.
func DeriveSeed(root uint64, key string) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], root)
	h := sha256.New()
	h.Write(b[:])
	h.Write([]byte(key))
	return binary.LittleEndian.Uint64(h.Sum(nil)[:8])
}

// NewRand returns a PCG stream for a seed and a key.
func NewRand(seed uint64, key string) *rand.Rand {
	return rand.New(rand.NewPCG(seed, DeriveSeed(seed, "stream:"+key)))
}

// KernelFor converts a model point into a kernel.
func KernelFor(p config.ModelPoint) (kernel.Kernel, error) {
	switch p.Kernel {
	case "":
		return nil, nil
	case "gaussian":
		return kernel.NewGaussian(p.WidthName, p.Width)
	case "linear":
		return kernel.Linear{}, nil
	case "polynomial":
		return kernel.Polynomial{Degree: p.Degree, Offset: p.Offset}, nil
	}
	return nil, fmt.Errorf("runner: unknown kernel %q", p.Kernel)
}

// WithWidth returns a copy of the cell whose Gaussian width (in the
// config's parameterisation) is w, with its kernel rebuilt: experiments
// that tune the width on validation data (Nguyen & De la Torre) change it
// this way and no other.
func (c *Cell) WithWidth(w float64) (*Cell, error) {
	mp := c.Model
	mp.Width = w
	k, err := KernelFor(mp)
	if err != nil {
		return nil, err
	}
	out := *c
	out.Model, out.Kernel = mp, k
	return &out, nil
}

// DefaultMaxCells is the default bound on the cells of one config (the
// largest shipped config has a few hundred); runexp --max-cells raises it.
const DefaultMaxCells = 100_000

// MaxCells bounds the cells of one config: Cells refuses a larger grid
// before expanding it. The CLI sets it from --max-cells.
var MaxCells = DefaultMaxCells

// gridSize returns the number of cells c expands to, or a number above
// limit (without overflowing) when it has more.
func gridSize(c *config.Config, limit int) int {
	mul := func(a, b int) int {
		if a == 0 || b == 0 {
			return 0
		}
		if a > limit/b+1 {
			return limit + 1
		}
		return min(a*b, limit+1)
	}
	model := mul(max(len(c.Model.Widths), 1), max(len(c.Model.Components)+len(c.Model.Energy), 1))
	if len(c.Methods) == 0 {
		return model
	}
	methods := 0
	for _, m := range c.Methods {
		n := 1
		for _, v := range m.Params.Values {
			if l, ok := v.([]any); ok {
				n = mul(n, len(l))
			}
		}
		methods = min(methods+n, limit+1)
	}
	return mul(model, methods)
}

// Cells expands a config into its cells, binding every estimator's
// parameters. Errors point into the config file.
func Cells(c *config.Config) ([]*Cell, error) {
	if n := gridSize(c, MaxCells); n > MaxCells {
		return nil, c.Errorf(0, "the grid has more than %d cells (the model's axes times each method's parameter axes); shrink it, or raise the bound with --max-cells", MaxCells)
	}
	type bound struct {
		label  string
		spec   *methods.Spec
		params methods.Params
		index  int
	}
	var ms []bound
	for i, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		if !ok {
			return nil, c.Errorf(m.Line, "methods[%d]: unknown estimator %q%s (registered: %s)", i, m.Name, suggest.Hint(m.Name, methods.Names(), 3), strings.Join(methods.Names(), ", "))
		}
		label := m.Label
		if label == "" {
			label = spec.Title
		}
		for _, pt := range m.Expand(i) {
			p, err := spec.Bind(pt.Params)
			if err != nil {
				var pe *methods.ParamError
				if errors.As(err, &pe) {
					return nil, m.Params.Errorf(pe.Param, "methods[%d].params: %s", i, pe.Error())
				}
				return nil, c.Errorf(m.Line, "methods[%d]: %v", i, err)
			}
			ms = append(ms, bound{label: label, spec: spec, params: p, index: i})
		}
	}
	var cells []*Cell
	for _, mp := range c.ModelGrid() {
		k, err := KernelFor(mp)
		if err != nil {
			return nil, c.ModelErrorf("%v", err)
		}
		base := mp.Params()
		if len(ms) == 0 {
			cells = append(cells, newCell(c, len(cells), mp, k, nil, base))
			continue
		}
		for _, b := range ms {
			flat := make(map[string]any, len(base)+len(b.params)+1)
			for key, v := range base {
				flat[key] = v
			}
			flat[report.MethodParam] = b.label
			for key, v := range b.params {
				if _, clash := flat[key]; clash {
					return nil, c.Errorf(c.Methods[b.index].Line, "methods[%d]: parameter %q clashes with a model or method key", b.index, key)
				}
				flat[key] = v
			}
			bm := &BoundMethod{Spec: b.spec, Label: b.label, Params: b.params, Index: b.index}
			cells = append(cells, newCell(c, len(cells), mp, k, bm, flat))
		}
	}
	seen := map[string]int{}
	for _, cell := range cells {
		if prev, dup := seen[cell.Key]; dup {
			return nil, c.Errorf(0, "the grid has the same cell twice (%s, cells %d and %d): remove the repeated value", cell.Key, prev, cell.Index)
		}
		seen[cell.Key] = cell.Index
	}
	return cells, nil
}

func newCell(c *config.Config, i int, mp config.ModelPoint, k kernel.Kernel, m *BoundMethod, flat map[string]any) *Cell {
	key := config.CanonicalKey(flat)
	return &Cell{Index: i, Key: key, Seed: DeriveSeed(c.Seed, key), Model: mp, Kernel: k, Method: m, Params: flat}
}
