package edit

import "testing"

func TestUnified(t *testing.T) {
	t.Parallel()
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"
	got, add, rem, trunc := Unified("x.txt", []byte(a), []byte(b), 2, 1<<20)
	want := "--- a/x.txt\n+++ b/x.txt\n@@ -1,5 +1,5 @@\n 1\n 2\n-3\n+three\n 4\n 5\n@@ -11,2 +11,3 @@\n 11\n 12\n+13\n"
	if got != want || add != 2 || rem != 1 || trunc {
		t.Errorf("Unified:\n%s\nwant:\n%s(added %d removed %d truncated %v)", got, want, add, rem, trunc)
	}
	got, _, _, _ = Unified("n", []byte("a"), []byte("b"), 3, 1<<20)
	if want := "--- a/n\n+++ b/n\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"; got != want {
		t.Errorf("no trailing newline:\n%q\nwant\n%q", got, want)
	}
	got, _, _, _ = Unified("new", nil, []byte("x\n"), 3, 1<<20)
	if want := "--- a/new\n+++ b/new\n@@ -0,0 +1,1 @@\n+x\n"; got != want {
		t.Errorf("new file:\n%q", got)
	}
	if _, _, _, trunc := Unified("x", []byte(a), []byte(b), 2, 60); !trunc {
		t.Error("a diff over its budget is not marked truncated")
	}
	added, removed := Added([]byte(a), []byte(b))
	if len(added) != 2 || added[0] != (Line{3, "three"}) || added[1] != (Line{13, "13"}) || removed != 1 {
		t.Errorf("Added: %v, %d", added, removed)
	}
}
