package registry_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/registry"
)

// A registry of values by name: registered once (from init functions),
// looked up by name, listed in name order.
func Example() {
	type shape struct{ sides int }
	shapes := registry.New[shape]("example: shape")
	shapes.Add("triangle", shape{3})
	shapes.Add("square", shape{4})

	sq, ok := shapes.Lookup("square")
	fmt.Println(sq.sides, ok)
	_, ok = shapes.Lookup("circle")
	fmt.Println(ok)
	for _, s := range shapes.All() {
		fmt.Print(s.sides, " ")
	}
	fmt.Println(shapes.Names())

	defer func() { fmt.Println(recover()) }()
	shapes.Add("square", shape{4})
	// Output:
	// 4 true
	// false
	// 4 3 [square triangle]
	// example: shape "square" registered twice
}
