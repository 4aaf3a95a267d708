package gitmeta

import "testing"

func TestLineChurn(t *testing.T) {
	for _, tc := range []struct {
		name, before, now string
		want              Churn
	}{
		{"new file", "", "a\nb\n", Churn{Added: 2}},
		{"deleted", "a\nb\nc\n", "", Churn{Deleted: 3}},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", Churn{Added: 1, Deleted: 1}},
		{"appended without newline", "a\n", "a\nb", Churn{Added: 1}},
		{"same", "a\n", "a\n", Churn{}},
	} {
		if got := lineChurn(tc.before, tc.now); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
