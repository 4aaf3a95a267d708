package structure

import (
	"cmp"
	"slices"
)

// violations lists upward and skip-layer edges and one CircularDependency
// per cycle (named by its heaviest feedback edge), Critical first.
func (L *Layering) violations(feedback map[[2]int]bool) {
	u := L.Units
	heaviest := make([]Violation, len(L.Cycles))
	for i := range heaviest {
		heaviest[i] = Violation{Kind: CircularDependency, Cycle: i, Weight: -1}
	}
	for v := range u.Len() {
		lv := L.Level[v]
		for _, l := range u.Out[v] {
			lt := L.Level[l.To]
			cyc := -1
			if c := L.CycleOf[v]; c >= 0 && c == L.CycleOf[l.To] {
				cyc = c
				if h := &heaviest[c]; feedback[[2]int{v, l.To}] && l.Weight > h.Weight {
					h.From, h.To, h.FromLevel, h.Level, h.Weight = v, l.To, lv, lt, l.Weight
				}
			}
			switch gap := lt - lv; {
			case gap > 0:
				L.Violations = append(L.Violations, Violation{Kind: UpwardDependency, Severity: upwardSeverity(gap),
					From: v, To: l.To, FromLevel: lv, Level: lt, Weight: l.Weight, Cycle: cyc})
			case -gap >= skipGap && L.bypasses(v, l.To):
				L.Violations = append(L.Violations, Violation{Kind: SkipLayer, Severity: Low,
					From: v, To: l.To, FromLevel: lv, Level: lt, Weight: l.Weight, Cycle: cyc})
			}
		}
	}
	for i, h := range heaviest {
		if h.Weight < 0 { // every feedback edge went back down: name the first link
			c := L.Cycles[i]
			for _, l := range u.Out[c[0]] {
				if L.CycleOf[l.To] == i {
					h.From, h.To, h.FromLevel, h.Level, h.Weight = c[0], l.To, L.Level[c[0]], L.Level[l.To], l.Weight
					break
				}
			}
		}
		h.Severity = cycleSeverity(len(L.Cycles[i]))
		L.Violations = append(L.Violations, h)
	}
	slices.SortFunc(L.Violations, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
}

// bypasses reports whether a's dependency on c skips a layer around a
// unit b that a depends on and that depends on c, b's layer strictly
// between theirs; never for a cross-cutting c.
func (L *Layering) bypasses(a, c int) bool {
	if L.crossCutting[c] {
		return false
	}
	u, la, lc := L.Units, L.Level[a], L.Level[c]
	for _, l := range u.Out[a] {
		if lb := L.Level[l.To]; lb > lc && lb < la {
			if _, ok := slices.BinarySearchFunc(u.Out[l.To], c, func(x Link, t int) int { return x.To - t }); ok {
				return true
			}
		}
	}
	return false
}

// upwardSeverity grows with the number of levels the edge climbs.
func upwardSeverity(gap int) Severity {
	switch {
	case gap >= 3:
		return Critical
	case gap == 2:
		return High
	}
	return Medium
}

// cycleSeverity grows with the number of units tied together.
func cycleSeverity(size int) Severity {
	switch {
	case size >= 8:
		return Critical
	case size >= 4:
		return High
	case size == 3:
		return Medium
	}
	return Low
}

// health fills each layer's Health and the overall separation.
func (L *Layering) health() {
	u := L.Units
	for v := range u.Len() {
		lv := L.Level[v]
		if lv < 0 {
			continue
		}
		h := &L.Layers[lv].Health
		for _, l := range u.Out[v] {
			switch lt := L.Level[l.To]; {
			case lt == lv:
				h.Internal += l.Weight
			case lt > lv:
				h.Up += l.Weight
			default:
				h.Down += l.Weight
				if lv-lt >= skipGap && L.bypasses(v, l.To) {
					h.Skip += l.Weight
				}
			}
		}
	}
	for i := range L.Layers {
		h := &L.Layers[i].Health
		all := h.Internal + h.Down + h.Up
		h.Separation = ratio(all-h.Up, all)
		L.Edges += all
		L.Clean += all - h.Up
	}
	L.Separation = ratio(L.Clean, L.Edges)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
