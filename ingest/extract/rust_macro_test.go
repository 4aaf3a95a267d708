package extract

import "testing"

// TestRustCallsInMacroArguments: a call written inside a macro's token
// tree keeps its receiver, as it would outside the macro. serde wraps most
// calls in tri!(…): `tri!(value.serialize(self))` on a generic value was a
// bare call to serialize, so it bound to the one serialize method of the
// calling file (AdjacentlyTaggedEnumVariant's), giving it 16 callers.
func TestRustCallsInMacroArguments(t *testing.T) {
	src := `struct Store { cache: Cache }

impl Store {
    fn put<T: Ser>(&self, value: &T, w: Writer) -> R {
        tri!(value.serialize(self));
        tri!(self.flush());
        tri!(self.cache.lookup(1));
        tri!(w.write(Cache::new(2)));
        tri!(codec::encode(1));
        tri!(make().finish());
        tri!(helper(3))
    }
}
`
	r, err := ExtractFile("src/store.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::src/store.rs::Store::put"
	for _, tc := range []struct {
		name string
		line uint32
		h    RefHint
	}{
		{"serialize", 5, RefHint{Receiver: "value", ReceiverType: "T"}},
		{"flush", 6, RefHint{Receiver: "self", ReceiverType: "Store"}},
		{"lookup", 7, RefHint{Receiver: "self.cache", ReceiverType: "Cache"}},
		{"write", 8, RefHint{Receiver: "w", ReceiverType: "Writer"}},
		{"new", 8, RefHint{Receiver: "Cache", ReceiverType: "Cache"}},
		{"encode", 9, RefHint{Module: "codec", Receiver: "codec"}},
		{"finish", 10, RefHint{Receiver: "make()"}},
		{"helper", 11, RefHint{Module: "-", Receiver: "-"}},
	} {
		wantEdge(t, r, f, "calls", "ref::"+tc.name, tc.line, tc.h)
	}
}
