package config_test

import "testing"

// ContextExcept leaves out exactly the named experiment options: configs
// that differ only in them share a context, configs that differ in any
// other option do not, and Context is ContextExcept with nothing left out.
func TestContextExcept(t *testing.T) {
	a := mustParse(t, head+"experiment: {renormalize: true, figure: bands, examples: 2}\n")
	b := mustParse(t, head+"experiment: {renormalize: false, examples: 2}\n")
	c := mustParse(t, head+"experiment: {renormalize: false, examples: 3}\n")
	skip := []string{"renormalize", "figure"}
	if a.Context() == b.Context() {
		t.Error("configs with different experiment options share a context")
	}
	if a.ContextExcept(skip) != b.ContextExcept(skip) {
		t.Errorf("configs differing only in %v have contexts %s and %s", skip, a.ContextExcept(skip), b.ContextExcept(skip))
	}
	if b.ContextExcept(skip) == c.ContextExcept(skip) {
		t.Error("configs differing in examples, which is not left out, share a context")
	}
	if a.Context() != a.ContextExcept(nil) {
		t.Error("Context is not ContextExcept(nil)")
	}
}
