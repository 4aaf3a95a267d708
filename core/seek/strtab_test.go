package seek

import (
	"fmt"
	"reflect"
	"testing"
)

// strings lists the table's strings by number.
func (t *strtab) strings() []string {
	out := make([]string, t.len())
	for i := range out {
		out[i] = string(t.at(uint32(i)))
	}
	return out
}

// A strtab numbers strings as a map would, across its growth, and finds
// each by string and by bytes.
func TestStrtabNumbersAsAMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
	}{
		{"empty table", nil},
		{"one", []string{"http"}},
		{"repeats", []string{"a", "b", "a", "", "b", ""}},
		{"prefixes", []string{"handl", "handle", "handler", "han", "handler"}},
		{"grows", func() []string {
			var s []string
			for i := range 5000 {
				s = append(s, fmt.Sprint("t", i%3001))
			}
			return s
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newStrtab(0)
			want := map[string]uint32{}
			var order []string
			for _, s := range tc.in {
				id := tab.intern(s)
				w, ok := want[s]
				if !ok {
					w = uint32(len(order))
					want[s], order = w, append(order, s)
				}
				if id != w {
					t.Fatalf("intern(%q) = %d, want %d", s, id, w)
				}
			}
			if tab.len() != len(order) {
				t.Fatalf("len %d, want %d", tab.len(), len(order))
			}
			for s, w := range want {
				if id, ok := tab.lookup(s); !ok || id != w {
					t.Errorf("lookup(%q) = %d, %v; want %d", s, id, ok, w)
				}
				if id, ok := tab.lookupBytes([]byte(s)); !ok || id != w {
					t.Errorf("lookupBytes(%q) = %d, %v; want %d", s, id, ok, w)
				}
				if got := string(tab.at(w)); got != s {
					t.Errorf("at(%d) = %q, want %q", w, got, s)
				}
			}
			for _, s := range []string{"absent", "handlers", "t3001", "x"} {
				if _, in := want[s]; in {
					continue
				}
				if id, ok := tab.lookup(s); ok {
					t.Errorf("lookup(%q) = %d, want absent", s, id)
				}
				if id, ok := tab.lookupBytes([]byte(s)); ok {
					t.Errorf("lookupBytes(%q) = %d, want absent", s, id)
				}
			}
		})
	}
}

// A zero strtab (an index built on no graph) finds nothing.
func TestStrtabZeroFindsNothing(t *testing.T) {
	var tab strtab
	if _, ok := tab.lookup("a"); ok {
		t.Error("lookup found a string in a zero table")
	}
	if _, ok := tab.lookupBytes([]byte("a")); ok {
		t.Error("lookupBytes found a string in a zero table")
	}
}

// Lookups make no string: the index looks up every query term and every
// candidate name's parts.
func TestStrtabLookupsAllocateNothing(t *testing.T) {
	tab := newStrtab(0)
	for i := range 1000 {
		tab.intern(fmt.Sprint("term", i))
	}
	b := []byte("term500-and-more")[:7]
	if n := testing.AllocsPerRun(100, func() {
		tab.lookup("term999")
		tab.lookupBytes(b)
	}); n != 0 {
		t.Errorf("%v allocations a lookup pair, want 0", n)
	}
}

// The index's vocabulary and the termIndex hold no pointer but their
// arrays', which are pointer-free: the collector marks them without
// scanning their contents (a map[string]uint32 is scanned whole).
func TestVocabHoldsNoPointers(t *testing.T) {
	vocab, _ := reflect.TypeOf(Index{}).FieldByName("vocab")
	tab, _ := reflect.TypeOf(termIndex{}).FieldByName("tab")
	for _, ty := range []reflect.Type{vocab.Type, tab.Type} {
		if ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct {
			t.Errorf("%v: want a struct of pointer-free arrays", ty)
			continue
		}
		for i := range ty.NumField() {
			f := ty.Field(i)
			if f.Type.Kind() == reflect.Slice && !holdsPointers(f.Type.Elem()) || !holdsPointers(f.Type) {
				continue
			}
			t.Errorf("%v.%s (%v) holds pointers the collector scans", ty, f.Name, f.Type)
		}
	}
}

// holdsPointers reports whether a value of ty holds a pointer.
func holdsPointers(ty reflect.Type) bool {
	switch ty.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.String, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return ty.Len() > 0 && holdsPointers(ty.Elem())
	case reflect.Struct:
		for i := range ty.NumField() {
			if holdsPointers(ty.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
