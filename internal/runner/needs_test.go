package runner_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("needs-test", "a kind that declares what it needs",
		func(*config.Config) (struct{}, error) { return struct{}{}, nil },
		func(*runner.Env, struct{}) (runner.Instance, error) { return fakeKind{}, nil })
	k.Takes = methods.PreImages
	k.Needs = runner.Needs{Model: true, Methods: "an estimator", Why: "the test starts pre-image iterations"}
	runner.RegisterKind(k)
}

// TestNeeds: Validate refuses, at the config's line, a config without
// the kernel and subspace size a kind's Needs asks for, without methods,
// or with a method that cannot do what the kind Takes.
func TestNeeds(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"model: {kernel: gaussian, c: 1, components: 2}\nmethods: [{name: mika}]\n", ""},
		{"model: {kernel: gaussian, c: 1, energy: 0.9}\nmethods: [{name: mika}]\n", ""},
		{"model: {kernel: gaussian, c: 1}\nmethods: [{name: mika}]\n", "model: needs-test needs a kernel and components (or energy)"},
		{"methods: [{name: mika}]\n", "needs a kernel and components"},
		{"model: {kernel: gaussian, c: 1, components: 2}\n", "methods: needs-test needs an estimator"},
		{"model: {kernel: gaussian, c: 1, components: 2}\nmethods:\n  - name: mika\n  - name: linear-pca\n",
			"n.yaml:9: methods[1]: linear-pca is not a pre-image estimator (it does de-noise); the test starts pre-image iterations"},
	} {
		c, err := config.Parse("n.yaml", []byte("title: t\npaper: p\nkind: needs-test\nseed: 1\ndataset: {name: none-test}\n"+tc.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = runner.Validate(c)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}
