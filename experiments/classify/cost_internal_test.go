package classify

import "testing"

// TestCostsByHand checks the counts on small sizes, term by term (cost.go):
// N = 4, M = 2, D = 3, r = 3, q = 2, d = 2, nnz = 6.
func TestCostsByHand(t *testing.T) {
	s := sizes{n: 4, m: 2, dim: 3, r: 3, q: 2, top: 2}
	// 16·3 + 3·16 + 9·64 + 2·2·4·3 + 2·2·4·3 = 48 + 48 + 576 + 48 + 48.
	if got := s.kpcaFlops(); got != 768 {
		t.Errorf("KPCA %v, want 768", got)
	}
	// 2·16·3 + 16·log₂4 = 96 + 32.
	if got := s.graphFlops(); got != 128 {
		t.Errorf("graph %v, want 128", got)
	}
	// 4·3 + (4+6)·3 + 4·9 + (4/3)·27 + 2·9·2 + 2·6·3·2 = 12 + 30 + 36 + 36 + 36 + 72.
	if got := s.lpkpcaFlops(6); got != 222 {
		t.Errorf("LPKPCA %v, want 222", got)
	}
}
