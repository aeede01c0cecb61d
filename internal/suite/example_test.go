package suite_test

import (
	"fmt"
	"log"

	"github.com/runexp/runexp/internal/suite"
)

// A --with SPEC names a registered estimator and, after a colon, its
// parameters as YAML scalars; label= names the added method in tables.
func ExampleParseWith() {
	w, err := suite.ParseWith("mika:max_iter=20,tol=1e-6,label=Mika (20 steps)")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %q %v %v\n", w.Name, w.Label, w.Params["max_iter"], w.Params["tol"])
	_, err = suite.ParseWith("mika:max_iters=20")
	fmt.Println(err != nil)
	// Output:
	// mika "Mika (20 steps)" 20 1e-06
	// true
}

// The results of a --with run go to OUT/with-SLUG: the labels in safe
// characters and 8 hex digits of the SHA-256 of the specs, each ended by
// a NUL (printf 'tikhonov\0learned:alpha=0.01\0' | sha256sum gives
// e0bacb6a…), so that the same flags find the same folder and a run never
// replaces the papers' own.
func ExampleRoot() {
	ws, err := suite.ParseWiths([]string{"tikhonov", "learned:alpha=0.01"})
	if err != nil {
		log.Fatal(err)
	}
	root, err := suite.Root("results", "", ws)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(root)
	plain, _ := suite.Root("results", "", nil)
	fmt.Println(plain)
	// Output:
	// results/with-tikhonov_learned-e0bacb6a
	// results
}
