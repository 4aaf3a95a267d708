package risk

import (
	"fmt"
	"math"
)

// Tremor constants (docs/design.md#tremor).
const (
	// CriticalMagnitude and CriticalSlope: a tremor above both is Critical.
	CriticalMagnitude = 5.0
	CriticalSlope     = 0.5
	// stableBelow: a magnitude under it is noise, not a trend.
	stableBelow = 1.0
	// minEvents: fewer events in the window give an Unknown risk.
	minEvents = 3
)

// Window is how far back a tremor reading looks.
type Window string

// The windows.
const (
	Days7  Window = "7d"
	Days30 Window = "30d"
	Days90 Window = "90d"
	All    Window = "all"
)

// ParseWindow reads "7d", "30d", "90d" or "all".
func ParseWindow(s string) (Window, error) {
	switch w := Window(s); w {
	case Days7, Days30, Days90, All:
		return w, nil
	}
	return "", fmt.Errorf("unknown window %q (7d, 30d, 90d or all)", s)
}

// Span is the window's length in seconds (0 for All: the caller's
// history span).
func (w Window) Span() float64 {
	switch w {
	case Days7:
		return 7 * 86400
	case Days30:
		return 30 * 86400
	case Days90:
		return 90 * 86400
	}
	return 0
}

// Bins is how many equal bins the window's series has: days for a week,
// three-day bins for a month, about weeks for a quarter, twelve for all.
func (w Window) Bins() int {
	switch w {
	case Days7:
		return 7
	case Days30:
		return 10
	}
	return 12
}

// Direction is where a module's change frequency is heading.
type Direction string

// The directions.
const (
	Accelerating Direction = "Accelerating"
	Decelerating Direction = "Decelerating"
	Stable       Direction = "Stable"
)

// Level is a tremor's risk.
type Level string

// The levels, worst first.
const (
	Critical Level = "Critical"
	High     Level = "High"
	Medium   Level = "Medium"
	Low      Level = "Low"
	Unknown  Level = "Unknown"
)

// Reading is one module's tremor in a window.
type Reading struct {
	Direction Direction `json:"direction"`
	// Magnitude is |MeanAccel| × √Events.
	Magnitude float64 `json:"magnitude"`
	// MeanAccel is the mean second difference of the per-bin counts.
	MeanAccel float64 `json:"mean_acceleration"`
	// Slope is the least-squares slope of the per-bin counts (events per
	// bin, per bin).
	Slope  float64   `json:"slope"`
	Events int       `json:"events"`
	Risk   Level     `json:"risk"`
	Series []float64 `json:"series"`
}

// Measure reads the tremor of events dated by their age in seconds before
// the window's end. span is the window's length (Window.Span, or the
// history's span for All); events older than span, or with a negative
// age, are outside the window. bins ≥ 3 (Window.Bins).
func Measure(ages []float64, span float64, bins int) Reading {
	bins = max(bins, 3)
	series := make([]float64, bins)
	r := Reading{Series: series, Direction: Stable, Risk: Unknown}
	if !(span > 0) || math.IsInf(span, 0) {
		return r
	}
	width := span / float64(bins)
	for _, a := range ages {
		if a < 0 || a > span || math.IsNaN(a) {
			continue
		}
		i := bins - 1 - min(int(a/width), bins-1)
		series[i]++
		r.Events++
	}
	// The second differences telescope: their mean is the change of the
	// first difference over the series, per step.
	d1first, d1last := series[1]-series[0], series[bins-1]-series[bins-2]
	r.MeanAccel = (d1last - d1first) / float64(bins-2)
	r.Magnitude = math.Abs(r.MeanAccel) * math.Sqrt(float64(r.Events))
	r.Slope = slope(series)
	switch {
	case r.Magnitude < stableBelow:
	case r.MeanAccel > 0:
		r.Direction = Accelerating
	default:
		r.Direction = Decelerating
	}
	r.Risk = levelOf(r)
	return r
}

func levelOf(r Reading) Level {
	switch {
	case r.Events < minEvents:
		return Unknown
	case r.Magnitude > CriticalMagnitude && r.Slope > CriticalSlope:
		return Critical
	case r.Magnitude > 3 && r.Slope > 0:
		return High
	case r.Magnitude >= stableBelow:
		return Medium
	}
	return Low
}

// slope is the least-squares slope of ys over 0, 1, 2, …
func slope(ys []float64) float64 {
	n := float64(len(ys))
	mx := (n - 1) / 2
	var my float64
	for _, y := range ys {
		my += y
	}
	my /= n
	var num, den float64
	for i, y := range ys {
		dx := float64(i) - mx
		num += dx * (y - my)
		den += dx * dx
	}
	if den == 0 {
		return 0
	}
	return num / den
}
