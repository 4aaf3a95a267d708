package graph

import (
	"slices"
	"testing"
	"unsafe"
)

// externalIDs gives each node its id's text, empty for an index out of
// range, in memory of its own: none of it points into the decoded table.
func TestExternalIDsCopied(t *testing.T) {
	table := "abcfile::x.go::Fdir::"
	strs := []string{"", table[0:3], table[3:16], table[16:]}
	got := externalIDs(strs, []uint32{1, 2, 9, 3, 2, 0})
	want := []string{"abc", "file::x.go::F", "", "dir::", "file::x.go::F", ""}
	if !slices.Equal(got, want) {
		t.Fatalf("externalIDs = %q, want %q", got, want)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(table)))
	for i, s := range got {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); s != "" && p >= lo && p < lo+uintptr(len(table)) {
			t.Errorf("id %d (%q) points into the decoded table", i, s)
		}
	}
}
