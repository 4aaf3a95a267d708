package history

import "testing"

func TestRelPhrase(t *testing.T) {
	for _, tc := range []struct{ rel, want string }{
		{"calls", "calls"},
		{"imports", "imports"},
		{"member_of", "defines methods of a type in"},
		{"imports::type", "imports types from"},
		{"python::inherits", "inherits from"},
		{"instantiates", "constructs a class of"},
	} {
		if got := relPhrase(tc.rel); got != tc.want {
			t.Errorf("relPhrase(%q) = %q, want %q", tc.rel, got, tc.want)
		}
	}
}
