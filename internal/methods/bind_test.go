package methods

import (
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
