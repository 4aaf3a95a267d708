package risk

import (
	"encoding/json"
	"math"
	"testing"
)

func TestIsFix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"Fix crash in parser", true},
		{"cmd/compile: fix inlining of closures", true},
		{"gh-1234: Fixed a regression in asyncio", true},
		{"bpo-42: bugfix for tarfile", true},
		{"add prefix handling", false},
		{"debugging helpers", false},
		{"Refactor session store", false},
		{"crashes on empty input", true},
	} {
		if got := IsFix(tc.s); got != tc.want {
			t.Errorf("IsFix(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestCompute(t *testing.T) {
	none := Evidence{LastDefectHours: -1}
	py := priorDefects / math.Ln2 // the prior's years
	year := 365 * 24.0
	for _, tc := range []struct {
		name string
		e    Evidence
		hl   float64
		want Score
	}{
		{"cold start", none, 0, Score{Trust: 0.5, Base: 0.5, Rate: math.Ln2, Recency: 1, Tier: MediumRisk}},
		// 8 clean changes over two years: rate 0.5/(py+2).
		{"clean", Evidence{Changes: 8, ExposureHours: 2 * year, LastDefectHours: -1}, 0,
			Score{Trust: math.Exp(-0.5 / (py + 2)), Base: math.Exp(-0.5 / (py + 2)), Rate: 0.5 / (py + 2), Recency: 1, Tier: LowRisk}},
		// 2 fixes in a year, the last one a half-life ago: recency 0.5.
		{"fixes", Evidence{Changes: 4, Fixes: 2, ExposureHours: year, LastDefectHours: 720}, 0,
			Score{Trust: math.Exp(-2.5/(py+1)) * 0.65, Base: math.Exp(-2.5 / (py + 1)), Rate: 2.5 / (py + 1), Recency: 0.5, Tier: HighRisk}},
		// The same with a 1440 h half-life: recency 1 − 2^−0.5.
		{"half-life", Evidence{Changes: 4, Fixes: 2, ExposureHours: year, LastDefectHours: 720}, 1440,
			Score{Trust: math.Exp(-2.5/(py+1)) * (0.3 + 0.7*(1-math.Sqrt2/2)), Base: math.Exp(-2.5 / (py + 1)), Rate: 2.5 / (py + 1), Recency: 1 - math.Sqrt2/2, Tier: HighRisk}},
		// Outcomes: a fresh confirmed defect, a partial and two false
		// alarms (half a year) on a module observed for a year.
		{"outcomes", Evidence{Changes: 2, Defects: 1, Partials: 1, FalseAlarms: 2, ExposureHours: year, LastDefectHours: 0}, 0,
			Score{Trust: math.Exp(-2/(py+1.5)) * 0.3, Base: math.Exp(-2 / (py + 1.5)), Rate: 2 / (py + 1.5), Recency: 0, Tier: HighRisk}},
	} {
		got := Compute(tc.e, tc.hl)
		if math.Abs(got.Trust-tc.want.Trust) > 1e-9 || math.Abs(got.Base-tc.want.Base) > 1e-9 || math.Abs(got.Rate-tc.want.Rate) > 1e-9 ||
			math.Abs(got.Recency-tc.want.Recency) > 1e-9 || got.Tier != tc.want.Tier {
			t.Errorf("%s: Compute = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestAdjustPrior(t *testing.T) {
	if p := AdjustPrior(0.5, 0.5, true); math.Abs(p-0.5) > 1e-9 {
		t.Errorf("neutral trust moved the prior: %v", p)
	}
	if p := AdjustPrior(0.5, 0.2, true); math.Abs(p-0.8) > 1e-9 {
		t.Errorf("low trust: %v, want 0.8", p)
	}
	if p := AdjustPrior(0.5, 0.2, false); math.Abs(p-0.2) > 1e-9 {
		t.Errorf("low trust, negative claim: %v, want 0.2", p)
	}
}

func TestMeasure(t *testing.T) {
	day := 86400.0
	// 7 daily bins, oldest first: 0 0 0 0 1 2 4 events. Ages: the newest
	// bin is [0, 1 day).
	var ages []float64
	for bin, n := range []int{0, 0, 0, 0, 1, 2, 4} {
		for range n {
			ages = append(ages, (6-float64(bin))*day+day/2)
		}
	}
	r := Measure(ages, 7*day, 7)
	// d1: 0 0 0 1 1 2; d2: 0 0 1 0 1; mean 0.4; magnitude 0.4 × √7.
	if r.Events != 7 || math.Abs(r.MeanAccel-0.4) > 1e-9 || math.Abs(r.Magnitude-0.4*math.Sqrt(7)) > 1e-9 {
		t.Fatalf("Measure = %+v", r)
	}
	if r.Direction != Accelerating || r.Risk != Medium || math.Abs(r.Slope-17.0/28) > 1e-9 {
		t.Errorf("direction %s risk %s slope %v", r.Direction, r.Risk, r.Slope)
	}
	// Out of the window or negative: ignored.
	if r := Measure([]float64{-1, 8 * day}, 7*day, 7); r.Events != 0 || r.Risk != Unknown {
		t.Errorf("outside the window: %+v", r)
	}
	// A burst: 0 … 0 20 in the newest bin is Critical.
	burst := make([]float64, 20)
	if r := Measure(burst, 7*day, 7); r.Risk != Critical {
		t.Errorf("burst: %+v", r)
	}
}

func TestObservationsRingAndDedup(t *testing.T) {
	o := NewObservations()
	if !o.Observe("a", 1000, 0.1) || o.Observe("a", 1500, 0.1) || !o.Observe("a", 2000, 0.1) {
		t.Fatal("dedup within 1 s")
	}
	for i := range 300 {
		o.Observe("b", int64(i)*2000, 1)
	}
	ring := o.Of("b")
	if len(ring) != RingSize || ring[0].At != 44*2000 {
		t.Fatalf("ring: %d, first %d", len(ring), ring[0].At)
	}
	data, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	back := NewObservations()
	if err := json.Unmarshal(data, back); err != nil {
		t.Fatal(err)
	}
	if len(back.Of("b")) != RingSize || len(back.Of("a")) != 2 {
		t.Errorf("round trip lost observations")
	}
}

func TestLedgerRoundTrip(t *testing.T) {
	l := NewLedger()
	l.Record("file::a.py", Defect, 100)
	l.Record("file::a.py", FalseAlarm, 200)
	l.Record("file::b.py", Partial, 50)
	data, _ := json.Marshal(l)
	back := NewLedger()
	if err := json.Unmarshal(data, back); err != nil {
		t.Fatal(err)
	}
	a, _ := back.Get("file::a.py")
	if a != (Entry{Defects: 1, FalseAlarms: 1, LastDefect: 100, First: 100, Updated: 200}) {
		t.Errorf("a = %+v", a)
	}
	e := Evidence{LastDefectHours: -1}
	a.AddTo(&e, 100+7200)
	if e.Defects != 1 || e.LastDefectHours != 2 || e.ExposureHours != 2 {
		t.Errorf("evidence %+v", e)
	}
	if err := json.Unmarshal([]byte(`{"version":9}`), back); err == nil {
		t.Error("a future version was read")
	}
}

func TestHistoryEvidence(t *testing.T) {
	h := int64(3600)
	commits := []Commit[string]{
		{Time: 100 * h, Subject: "add a and b", Modules: []string{"a", "b"}},
		{Time: 200 * h, Subject: "Fix crash in a", Modules: []string{"a"}},
		{Time: 300 * h, Subject: "tune b", Modules: []string{"b"}},
		{Time: 900 * h, Subject: "fix after now", Modules: []string{"a"}},
	}
	ev := HistoryEvidence(commits, 500*h)
	if *ev["a"] != (Evidence{Changes: 2, Fixes: 1, ExposureHours: 400, LastDefectHours: 300}) || *ev["b"] != (Evidence{Changes: 2, ExposureHours: 400, LastDefectHours: -1}) {
		t.Errorf("a %+v b %+v", *ev["a"], *ev["b"])
	}
	ages := ChangeAges(commits, 500*h)
	if len(ages["a"]) != 2 || ages["a"][1] != float64(300*h) {
		t.Errorf("ages %v", ages)
	}
}
