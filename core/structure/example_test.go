package structure_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/structure"
)

// Three modules stacked by their imports, one of which imports upward.
func ExampleDetectLayers() {
	names := []string{"api.py", "db.py", "models.py", "util.py"}
	links := map[[2]int]int{
		{0, 1}: 2, // api imports db
		{1, 2}: 2, // db imports models
		{2, 3}: 1, // models imports util
		{3, 2}: 1, // util imports models: a cycle with models
		{0, 2}: 1,
	}
	L := structure.DetectLayers(structure.FromLinks(names, links), structure.LayerOptions{MinLayerSize: 1})
	for _, ly := range L.Layers {
		for _, v := range ly.Units {
			fmt.Printf("L%d %s\n", ly.Level, names[v])
		}
	}
	for _, v := range L.Violations {
		fmt.Println(v.Severity, v.Kind, names[v.From], "->", names[v.To])
	}
	// Output:
	// L0 util.py
	// L1 models.py
	// L2 db.py
	// L3 api.py
	// Medium UpwardDependency util.py -> models.py
	// Low CircularDependency util.py -> models.py
}

// Louvain finds the two groups; the refactor plan's figures come from the
// same link graph.
func ExampleRefactorPlan() {
	names := []string{"a/1.go", "a/2.go", "a/3.go", "b/1.go", "b/2.go", "b/3.go"}
	links := map[[2]int]int{{0, 1}: 1, {1, 2}: 1, {0, 2}: 1, {3, 4}: 1, {4, 5}: 1, {3, 5}: 1, {2, 3}: 1}
	p := structure.RefactorPlan(structure.FromLinks(names, links), structure.PlanOptions{})
	fmt.Println(p.Partition, len(p.Proposals))
	fmt.Printf("modularity %.3f, cut %d\n", p.Modularity, p.Cut)
	// Output:
	// [0 0 0 1 1 1] 0
	// modularity 0.357, cut 1
}
