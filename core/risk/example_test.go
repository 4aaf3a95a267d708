package risk_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/risk"
)

// A module touched by ten commits over two years, three of them fixes,
// the newest fix ten months before the newest commit; and its
// change series in the last week.
func Example() {
	e := risk.Evidence{LastDefectHours: -1}
	for i, subject := range []string{"add cache", "Fix eviction bug", "tune", "fix race", "docs", "refactor", "fix crash on close", "tests", "api", "cleanup"} {
		ageHours := float64(730-i*74) * 24 // the first commit two years ago
		e.Changes++
		e.Expose(ageHours)
		if risk.IsFix(subject) {
			e.Fixes++
			e.SeeDefect(ageHours)
		}
	}
	s := risk.Compute(e, risk.HalfLifeHours)
	fmt.Printf("fixes %d/%d: %.2f a year, trust %.3f (base %.3f, recency %.3f) %s\n", e.Fixes, e.Changes, s.Rate, s.Trust, s.Base, s.Recency, s.Tier)

	day := 86400.0
	ages := []float64{6.5 * day, 2.5 * day, 1.5 * day, 0.5 * day, 0.4 * day, 0.3 * day}
	r := risk.Measure(ages, risk.Days7.Span(), risk.Days7.Bins())
	fmt.Println(r.Series, r.Direction, r.Risk)
	// Output:
	// fixes 3/10: 1.29 a year, trust 0.276 (base 0.276, recency 0.999) HighRisk
	// [1 0 0 0 1 1 3] Accelerating Medium
}
