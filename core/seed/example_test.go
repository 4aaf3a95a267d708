package seed_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/seed"
)

// The cascade on the worked example (docs/design.md#activation-pipeline):
// auth.py's stem "auth" is a prefix of the query word, and session.py
// carries the tag "auth".
func ExampleFinder_Find() {
	g, _ := graphtest.Backend()
	f, err := seed.NewFinder(g, nil, seed.DefaultOptions())
	if err != nil {
		panic(err)
	}
	for _, s := range f.Find("authentication", 0) {
		fmt.Printf("%s %.2f %s\n", g.Label(s.Node), s.Relevance, s.Match)
	}
	// Output:
	// auth.py 0.90 prefix
	// session.py 0.85 tag
}
