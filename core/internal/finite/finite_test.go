package finite

import (
	"math"
	"testing"
)

func TestChecks(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, v := range []float32{nan, inf, 0, -1} {
		if _, err := Positive("x", v); err == nil {
			t.Errorf("Positive(%v) accepted", v)
		}
	}
	if v, err := Positive("x", 0.5); err != nil || v != 0.5 {
		t.Errorf("Positive(0.5) = %v, %v", v, err)
	}
	for _, v := range []float32{nan, 0, 1.5} {
		if _, err := UnitInterval("lr", v); err == nil {
			t.Errorf("UnitInterval(%v) accepted", v)
		}
	}
	if _, err := UnitInterval("lr", 1); err != nil {
		t.Error(err)
	}
	if Clamp(nan, 0.05, 3) != 0.05 || Clamp(9, 0.05, 3) != 3 || Clamp(-inf, 0.05, 3) != 0.05 || Clamp(1, 0.05, 3) != 1 {
		t.Error("Clamp")
	}
	if Check("x", math.Inf(-1)) == nil || Check("x", 1) != nil {
		t.Error("Check")
	}
}
