package extract

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
        tri!(helper(3));
        Harness::<T, S>::from_raw(4);
        use tokio::sync::Barrier;
        Barrier::new(5)
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
		{"serialize", 5, RefHint{Receiver: "value", ReceiverType: "Ser"}},
		{"flush", 6, RefHint{Receiver: "self", ReceiverType: "Store"}},
		{"lookup", 7, RefHint{Receiver: "self.cache", ReceiverType: "Cache"}},
		{"write", 8, RefHint{Receiver: "w", ReceiverType: "Writer"}},
		{"new", 8, RefHint{Receiver: "Cache", ReceiverType: "Cache"}},
		{"encode", 9, RefHint{Module: "codec", Receiver: "codec"}},
		{"finish", 10, RefHint{Receiver: "make()"}},
		{"helper", 11, RefHint{Module: "-", Receiver: "-"}},
		{"from_raw", 12, RefHint{Receiver: "Harness", ReceiverType: "Harness"}},
		{"new", 14, RefHint{Module: "tokio::sync", Receiver: "Barrier", ReceiverType: "Barrier"}},
	} {
		wantEdge(t, r, f, "calls", "ref::"+tc.name, tc.line, tc.h)
	}
}

// TestRustGenericReceivers: a value whose type is a generic parameter is
// typed by the parameter's trait bound, not by the parameter's letter.
// serde's `fn visit_seq<A>(self, mut seq: A) where A: SeqAccess<'de>` made
// seq.next_element() a call on type "A", which bound to the blanket
// `impl<A> SeqAccess for &mut A` instead of the trait's method.
func TestRustGenericReceivers(t *testing.T) {
	src := `use crate::de::{MapAccess, Error};

impl<'de, A> SeqAccess<'de> for &mut A where A: ?Sized + SeqAccess<'de> {
    fn next_element(&mut self) -> R { (**self).next_element() }
}

struct V;

impl<'de, M: MapAccess<'de>> V {
    fn visit_seq<A>(self, mut seq: A, map: M) -> R
    where
        A: SeqAccess<'de>,
    {
        seq.next_element();
        map.next_key();
        A::size_hint(1);
    }

    fn fail<E>(n: u32) -> E
    where
        E: Error,
    {
        E::custom(n)
    }

    fn walk<T: Clone + Serialize + Debug>(v: &T, w: impl Write, d: &dyn Visit) {
        v.serialize(1);
        w.flush();
        d.visit();
        let u: T = v.clone();
        u.serialize(2);
    }
}
`
	r, err := ExtractFile("src/de.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::src/de.rs::V::"
	for _, tc := range []struct {
		fn, name string
		line     uint32
		h        RefHint
	}{
		{"visit_seq", "next_element", 14, RefHint{Receiver: "seq", ReceiverType: "SeqAccess"}},
		{"visit_seq", "next_key", 15, RefHint{Module: "crate::de", Receiver: "map", ReceiverType: "MapAccess"}},
		{"visit_seq", "size_hint", 16, RefHint{Receiver: "A", ReceiverType: "SeqAccess"}},
		{"fail", "custom", 23, RefHint{Module: "crate::de", Receiver: "E", ReceiverType: "Error"}},
		{"walk", "serialize", 27, RefHint{Receiver: "v", ReceiverType: "Serialize"}},
		{"walk", "flush", 28, RefHint{Receiver: "w", ReceiverType: "Write"}},
		{"walk", "visit", 29, RefHint{Receiver: "d", ReceiverType: "Visit"}},
		{"walk", "serialize", 31, RefHint{Receiver: "u", ReceiverType: "Serialize"}},
	} {
		wantEdge(t, r, f+tc.fn, "calls", "ref::"+tc.name, tc.line, tc.h)
	}
}

// TestRustPubUseReexports: `pub use` makes a name of another module part of
// this one, as JS's export-from does; private uses do not. clap's
// tests call clap::Arg::new, and Arg reaches builder/arg.rs only through
// clap_builder's `pub use crate::builder::{Arg, ArgGroup}` and builder's
// `pub use arg::Arg`.
func TestRustPubUseReexports(t *testing.T) {
	src := `mod arg;
pub use crate::builder::{Arg, ArgGroup as Group};
pub(crate) use arg::Ext;
pub use self::util::*;
use std::fmt;
use crate::parser::Matches;
`
	r, err := ExtractFile("src/lib.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Reexport{
		{Name: "Arg", Module: "crate::builder", Target: "Arg"},
		{Name: "Group", Module: "crate::builder", Target: "ArgGroup"},
		{Name: "Ext", Module: "arg", Target: "Ext"},
	}
	if diff := cmp.Diff(want, r.Reexports); diff != "" {
		t.Errorf("reexports (-want +got):\n%s", diff)
	}
}
