// Package risk holds the two history signals of the immune tools
// (docs/design.md#immune-memory-and-risk-signals): trust, a module's
// defect density from the fix commits that touched it and the outcomes
// agents recorded, and tremor, the acceleration of its change frequency.
//
// The package knows nothing of graphs or git: callers hand it events (a
// module's commits, each a fix or not, with its age) and get numbers back,
// so the same code scores a live session and an offline benchmark.
package risk

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Trust constants (docs/design.md#trust).
const (
	// HalfLifeHours is the default recency half-life: a defect a month
	// old weighs half as much in the recency factor as one found today.
	HalfLifeHours = 720.0
	// RecencyFloor is the share of the base trust a module keeps right
	// after a defect.
	RecencyFloor = 0.3
	// ColdStart is the trust of a module with no evidence.
	ColdStart = 0.5
	// HighRiskBelow and MediumRiskBelow are the tier boundaries.
	HighRiskBelow   = 0.4
	MediumRiskBelow = 0.7
)

// fixWords is the defect vocabulary of commit subjects: a commit whose
// subject uses one of these words fixed something in the files it touched.
// "prefix", "debug" and "bugle" do not match (word boundaries).
var fixWords = regexp.MustCompile(`(?i)\b(fix|fixe[sd]|fixing|bugs?|bugfix(es)?|hotfix(es)?|regressions?|crash(es|ed|ing)?|defects?|broken)\b`)

// IsFix reports whether a commit subject (or a learn query) describes a
// defect being fixed.
func IsFix(subject string) bool { return fixWords.MatchString(subject) }

// Tier is a trust band.
type Tier string

// The tiers, riskiest first.
const (
	HighRisk   Tier = "HighRisk"
	MediumRisk Tier = "MediumRisk"
	LowRisk    Tier = "LowRisk"
)

// TierOf is the band of a trust score.
func TierOf(trust float64) Tier {
	switch {
	case trust < HighRiskBelow:
		return HighRisk
	case trust < MediumRiskBelow:
		return MediumRisk
	}
	return LowRisk
}

// ParseTier reads a tier name, case-insensitively ("highrisk", "HighRisk").
func ParseTier(s string) (Tier, error) {
	for _, t := range []Tier{HighRisk, MediumRisk, LowRisk} {
		if strings.EqualFold(s, string(t)) {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown tier %q (HighRisk, MediumRisk or LowRisk)", s)
}

// Evidence is what is known about one module: its changes, the fixes
// among them, the outcomes agents recorded, how long it has been under
// observation and how long ago the last defect was found.
type Evidence struct {
	// Changes counts the commits that touched the module; Fixes those of
	// them that fixed something.
	Changes, Fixes int
	// Defects, FalseAlarms and Partials are recorded outcomes: a defect
	// confirmed in the module, a suspicion that proved wrong, a partial
	// confirmation.
	Defects, FalseAlarms, Partials int
	// ExposureHours is how long the module has been observed: from its
	// first change (or first recorded outcome) to now.
	ExposureHours float64
	// LastDefectHours is the age of the newest fix or confirmed defect in
	// hours; negative when there is none.
	LastDefectHours float64
}

// Observations is the amount of evidence: changes plus recorded outcomes.
func (e Evidence) Observations() int {
	return e.Changes + e.Defects + e.FalseAlarms + e.Partials
}

// SeeDefect keeps the youngest defect age.
func (e *Evidence) SeeDefect(ageHours float64) {
	ageHours = max(ageHours, 0)
	if e.LastDefectHours < 0 || ageHours < e.LastDefectHours {
		e.LastDefectHours = ageHours
	}
}

// Expose keeps the longest observation time.
func (e *Evidence) Expose(ageHours float64) { e.ExposureHours = max(e.ExposureHours, ageHours) }

// Score is a module's trust and its parts.
type Score struct {
	Trust float64 `json:"trust"`
	// Base is the probability of a year without a defect at the
	// module's posterior defect rate.
	Base float64 `json:"base"`
	// Rate is that posterior defect rate, defects per year.
	Rate float64 `json:"defects_per_year"`
	// Recency is 1 − 2^(−age of the last defect / half-life): 0 right
	// after a defect, towards 1 as it ages; 1 without defects.
	Recency float64 `json:"recency"`
	Tier    Tier    `json:"tier"`
}

// The Gamma prior on a module's defect rate (defects per year): shape
// priorDefects over priorYears, whose mean ln 2 per year makes a module
// without evidence ColdStart; half a defect of weight lets the first
// year of evidence dominate it.
const (
	priorDefects = 0.5
	priorYears   = priorDefects / math.Ln2
	// falseAlarmYears: a suspicion that proved wrong counts as this much
	// clean observation.
	falseAlarmYears = 0.25
	hoursPerYear    = 365 * 24
)

// Compute scores e: trust = base × (RecencyFloor + (1 − RecencyFloor) ×
// recency). The base is the chance of a defect-free year, exp(−rate),
// at the posterior mean of a Gamma–Poisson defect rate: fixes and
// confirmed defects are the defects (partials count half), the exposure
// the time observed. A rate, not a share of changes: a module changed
// often and fixed often is not made safe by its other changes — the
// later history agrees (docs/design.md#trust). halfLife ≤ 0 means
// HalfLifeHours.
func Compute(e Evidence, halfLife float64) Score {
	if halfLife <= 0 || math.IsNaN(halfLife) || math.IsInf(halfLife, 0) {
		halfLife = HalfLifeHours
	}
	defects := float64(e.Fixes+e.Defects) + 0.5*float64(e.Partials)
	years := max(e.ExposureHours, 0)/hoursPerYear + falseAlarmYears*float64(e.FalseAlarms)
	rate := (priorDefects + defects) / (priorYears + years)
	base := math.Exp(-rate)
	recency := 1.0
	if e.LastDefectHours >= 0 {
		recency = 1 - math.Exp2(-e.LastDefectHours/halfLife)
	}
	t := clamp01(base * (RecencyFloor + (1-RecencyFloor)*recency))
	return Score{Trust: t, Base: clamp01(base), Rate: finite(rate), Recency: clamp01(recency), Tier: TierOf(t)}
}

// AdjustPrior moves a prior probability that a module holds a bug by its
// trust: odds × (1 − trust)/trust relative to the neutral ColdStart, so
// a low-trust module makes a bug claim likelier and a high-trust one less
// likely. With claim false, prior and the answer are the probability
// that there is no bug.
func AdjustPrior(prior, trust float64, claim bool) float64 {
	if !claim {
		prior = 1 - prior
	}
	prior, trust = clamp(prior, 0.001, 0.999), clamp(trust, 0.01, 0.99)
	odds := prior / (1 - prior) * (1 - trust) / trust
	p := odds / (1 + odds)
	if !claim {
		p = 1 - p
	}
	return p
}

func clamp01(v float64) float64 { return clamp(v, 0, 1) }

func clamp(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return lo
	}
	return min(max(v, lo), hi)
}
