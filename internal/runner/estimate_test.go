package runner_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

// TestBytes checks the binary units of the estimate's messages, up to
// EiB, beyond which the number grows instead of the unit.
func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		b    float64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"},
		{3 << 30, "3.0 GiB"}, {1 << 60, "1.0 EiB"}, {1 << 70, "1024.0 EiB"},
	} {
		if got := runner.Bytes(tc.b); got != tc.want {
			t.Errorf("Bytes(%v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

// TestProduct checks that sizes multiplied from a config saturate at 2⁵³
// instead of wrapping around: a config asking for 10⁶ × 10⁶ × 10⁶ images
// must look huge to the estimate, not negative or small.
func TestProduct(t *testing.T) {
	for _, tc := range []struct {
		xs   []int
		want int
	}{
		{nil, 1}, {[]int{3, 4, 5}, 60}, {[]int{1 << 30, 1 << 30}, 1 << 53},
		{[]int{1_000_000, 1_000_000, 1_000_000}, 1 << 53}, {[]int{0, 1 << 62}, 0},
	} {
		if got := runner.Product(tc.xs...); got != tc.want {
			t.Errorf("Product(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
}

// TestParseShard checks --shard i/n: 0 ≤ i < n, both integers, and the
// refusal names the flag and the form it wants.
func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in     string
		i, n   int
		active bool
	}{
		{"0/1", 0, 1, false}, {"0/4", 0, 4, true}, {"3/4", 3, 4, true},
	} {
		s, err := runner.ParseShard(tc.in)
		if err != nil || s.Index != tc.i || s.Count != tc.n || s.Numbers != nil || s.Active() != tc.active {
			t.Errorf("ParseShard(%q) = %+v (active %t), %v", tc.in, s, s.Active(), err)
		}
	}
	for _, in := range []string{"4/4", "-1/4", "1/0", "1", "a/4", "1/b", "", "1/4/5", " 1/4"} {
		_, err := runner.ParseShard(in)
		if err == nil || !strings.HasPrefix(err.Error(), "--shard \"") || !strings.Contains(err.Error(), "want i/n with 0 ≤ i < n") {
			t.Errorf("ParseShard(%q): %v", in, err)
		}
	}
}
