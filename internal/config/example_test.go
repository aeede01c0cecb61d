package config_test

import (
	"fmt"
	"log"

	"github.com/runexp/runexp/internal/config"
)

func ExampleParse() {
	src := `
title: "Toy: distortion over c and #PCs"
paper: example-paper
kind: distortion
dataset:
  name: two-rings
  n: 500
model:
  kernel: gaussian
  c: [0.1, 5e-1]        # 5e-1 is the same cell as 0.5
  components: [2, 5, 10]
methods:
  - name: tikhonov
    params:
      lambda: [0.001, 0.01]
`
	c, err := config.Parse("toy.yaml", []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	grid := c.ModelGrid()
	fmt.Println("model grid points:", len(grid))
	for _, p := range grid[:3] {
		fmt.Println(config.CanonicalKey(p.Params()))
	}
	points := c.Methods[0].Expand(0)
	fmt.Println("cells:", len(grid)*len(points))

	// A mistake is reported at its line, saying what was expected.
	_, err = config.Parse("bad.yaml", []byte("title: t\npaper: p\nkind: k\ndataset: {name: d}\nseed: -1\n"))
	fmt.Println(err)
	// Output:
	// model grid points: 6
	// c=0.1,components=2,kernel=gaussian
	// c=0.1,components=5,kernel=gaussian
	// c=0.1,components=10,kernel=gaussian
	// cells: 12
	// bad.yaml:5: seed: -1 is impossible, want an integer ≥ 0
}

func ExampleFormatValue() {
	fmt.Println(config.FormatValue(0.5), config.FormatValue(1), config.FormatValue(1.0), config.FormatValue("a,b"))
	// Output:
	// 0.5 1 1 "a,b"
}
