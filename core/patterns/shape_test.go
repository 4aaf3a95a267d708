package patterns

import "testing"

func TestShapeOf(t *testing.T) {
	const orig = `func Sum(xs []int) int {
	total := 0 // running sum
	for _, x := range xs {
		if x > 0 { total += x }
	}
	return total
}`
	for _, tc := range []struct {
		name  string
		other string
		exact bool
		min   float64 // least similarity expected
		max   float64 // most similarity expected
	}{
		{"renamed", `func Add(vals []int) int {
	acc := 0
	for _, v := range vals {
		if v > 0 { acc += v }
	}
	return acc
}`, true, 1, 1},
		{"comments and layout", "func Sum(xs []int) int { /* all */ total := 0; for _, x := range xs { if x > 0 { total += x } }; return total }", false, 0.6, 1},
		{"qualified names", `func Sum(xs []pkg.Int) int {
	total := 0
	for _, x := range xs {
		if x > 0 { total += x }
	}
	return total
}`, true, 1, 1},
		{"other constants", `func Sum(xs []int) int {
	total := 10
	for _, x := range xs {
		if x > 7 { total += x }
	}
	return total
}`, true, 1, 1},
		{"another body", `func Max(xs []int) (m int, err error) {
	if len(xs) == 0 { return 0, errors.New("empty") }
	m = xs[0]
	for i := 1; i < len(xs); i++ { if xs[i] > m { m = xs[i] } }
	return m, nil
}`, false, 0, 0.3},
	} {
		a, b := ShapeOf([]byte(orig)), ShapeOf([]byte(tc.other))
		if (a.Exact == b.Exact) != tc.exact {
			t.Errorf("%s: exact match %v, want %v", tc.name, a.Exact == b.Exact, tc.exact)
		}
		if s := a.Similarity(&b); s < tc.min || s > tc.max {
			t.Errorf("%s: similarity %.3f, want in [%v, %v]", tc.name, s, tc.min, tc.max)
		}
	}
}

func TestShapeOfEmpty(t *testing.T) {
	s := ShapeOf(nil)
	if s.Tokens != 0 {
		t.Fatalf("tokens of nothing: %d", s.Tokens)
	}
	one := ShapeOf([]byte("x"))
	if one.Tokens != 1 || one.Similarity(&one) != 1 {
		t.Fatalf("one token: %+v", one.Tokens)
	}
}
