package methods

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestBindIntegerRange checks an integer parameter given as a float (as
// YAML reads 1e6): an integral float within ±2⁵³ binds to that int, one
// beyond is refused rather than wrapped by the conversion (1e19 bound to
// max_iter as −9223372036854775808 before).
func TestBindIntegerRange(t *testing.T) {
	s, ok := Lookup("mika")
	if !ok {
		t.Fatal("mika is not registered")
	}
	for _, v := range []float64{1e6, 1 << 53} {
		p, err := s.Bind(map[string]any{"max_iter": v})
		if err != nil || p["max_iter"] != int(v) {
			t.Errorf("max_iter %v: bound %v, %v", v, p["max_iter"], err)
		}
	}
	for _, v := range []float64{1<<53 + 2, 1e19, 1e300, math.Inf(1)} {
		_, err := s.Bind(map[string]any{"max_iter": v})
		if err == nil || !strings.Contains(err.Error(), `parameter "max_iter": integer`) || !strings.Contains(err.Error(), "out of range (want |n| ≤ 2^53)") {
			t.Errorf("max_iter %v: %v, want a refusal", v, err)
		}
	}
	if _, err := s.Bind(map[string]any{"max_iter": 2.5}); err == nil || !strings.Contains(err.Error(), "want an integer, got 2.5") {
		t.Errorf("max_iter 2.5: %v", err)
	}
}

// spec declares one parameter of each kind, and a required one.
func spec() *Spec {
	return &Spec{Name: "t", Params: []Param{
		FloatParam("f", 0.5, 0, 1, "a fraction"),
		IntParam("n", 3, 1, 10, "a count"),
		StringParam("s", "a", []string{"a", "b"}, "a choice"),
		StringParam("free", "x", nil, "any string"),
		BoolParam("b", false, "a switch"),
		{Name: "req", Kind: Float, Min: math.NaN(), Max: math.NaN(), Doc: "required"},
	}}
}

// TestBindKinds checks Bind parameter kind by parameter kind: defaults
// filled in, bounds inclusive, an int taken for a float and an integral
// float for an int, enums enforced, and every refusal naming the
// parameter and what it wanted.
func TestBindKinds(t *testing.T) {
	s := spec()
	p, err := s.Bind(map[string]any{"req": 2})
	if err != nil {
		t.Fatal(err)
	}
	if p.Float("f") != 0.5 || p.Int("n") != 3 || p.String("s") != "a" || p.Bool("b") || p.Float("req") != 2 || p.String("free") != "x" {
		t.Errorf("defaults %v", p)
	}
	p, err = s.Bind(map[string]any{"req": 1.5, "f": 1, "n": 10.0, "s": "b", "b": true, "free": "anything"})
	if err != nil || p.Float("f") != 1 || p.Int("n") != 10 || p.String("s") != "b" || !p.Bool("b") {
		t.Errorf("bounds inclusive, conversions: %v, %v", p, err)
	}
	for _, tc := range []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{}, `parameter "req": required by t`},
		{map[string]any{"req": 1, "g": 1}, `parameter "g": unknown for t (accepted: f, n, s, free, b, req)`},
		{map[string]any{"req": 1, "f": 1.5}, `parameter "f": 1.5 is above the maximum 1`},
		{map[string]any{"req": 1, "f": -0.1}, `parameter "f": -0.1 is below the minimum 0`},
		{map[string]any{"req": 1, "f": "x"}, `parameter "f": want a number, got x (string)`},
		{map[string]any{"req": math.NaN()}, `parameter "req": want a number, got NaN`},
		{map[string]any{"req": math.Inf(1)}, `parameter "req": want a finite number, got +Inf`},
		{map[string]any{"req": 1, "f": math.Inf(-1)}, `parameter "f": want a finite number, got -Inf`},
		{map[string]any{"req": 1, "n": 0}, `parameter "n": 0 is below the minimum 1`},
		{map[string]any{"req": 1, "n": 2.5}, `parameter "n": want an integer, got 2.5`},
		{map[string]any{"req": 1, "n": true}, `parameter "n": want an integer, got true (bool)`},
		{map[string]any{"req": 1, "s": "c"}, `parameter "s": want one of a, b, got "c"`},
		{map[string]any{"req": 1, "s": 1}, `parameter "s": want a string, got 1 (int)`},
		{map[string]any{"req": 1, "b": "yes"}, `parameter "b": want true or false, got yes (string)`},
	} {
		_, err := s.Bind(tc.raw)
		var pe *ParamError
		if err == nil || err.Error() != tc.want || !errors.As(err, &pe) {
			t.Errorf("Bind(%v): %v, want %q", tc.raw, err, tc.want)
		}
	}
}

// TestParamsAccessors checks that reading a parameter as the wrong kind
// is a programmer error naming the parameter, and that an int reads as a
// number.
func TestParamsAccessors(t *testing.T) {
	p := Params{"n": 3, "s": "x"}
	if p.Float("n") != 3 {
		t.Errorf("Float of an int: %v", p.Float("n"))
	}
	for name, read := range map[string]func(){
		"Float": func() { p.Float("s") }, "Int": func() { p.Int("s") },
		"String": func() { p.String("n") }, "Bool": func() { p.Bool("n") },
	} {
		func() {
			defer func() {
				r, _ := recover().(string)
				if !strings.HasPrefix(r, "methods: parameter ") {
					t.Errorf("%s of the wrong kind: recovered %q", name, r)
				}
			}()
			read()
		}()
	}
}

// TestKindAndRoleNames checks the words used in messages.
func TestKindAndRoleNames(t *testing.T) {
	if got := []string{Float.String(), Int.String(), String.String(), Bool.String()}; strings.Join(got, ",") != "number,integer,string,boolean" {
		t.Errorf("kinds %q", got)
	}
	if got := []string{NoRole.String(), NeighborsRole.String(), EnergyRole.String(), ComponentsRole.String()}; strings.Join(got, ",") != "none,neighbours,energy,components" {
		t.Errorf("roles %q", got)
	}
}
