package extract

import "testing"

// TestRustItemsInsideItemMacros: items written inside an item-level macro
// call with braces are the module's items. tokio declares most of its API
// in cfg_rt! { … } blocks (317 in tokio/src): task/spawn.rs's spawn was no
// node, so tokio::spawn(…) bound to process::Command::spawn, 198 callers.
func TestRustItemsInsideItemMacros(t *testing.T) {
	src := `cfg_rt! {
    pub fn spawn<F>(f: F) -> JoinHandle {
        spawn_inner(f)
    }

    cfg_unstable! {
        pub struct Builder { name: u32 }
    }
}

impl Handle {
    cfg_metrics! {
        pub fn metrics(&self) -> u32 { 1 }
    }
}

lazy_static! {
    static ref CACHE: u32 = 1;
}

pub fn after() {}
`
	r, err := ExtractFile("src/task.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::src/task.rs"
	wantNode(t, r, f+"::spawn", "Function", 2, "public")
	wantNode(t, r, f+"::Builder", "Struct", 7)
	wantNode(t, r, f+"::Handle::metrics", "Function", 13, "method")
	wantNode(t, r, f+"::after", "Function", 21)
	wantEdge(t, r, f+"::spawn", "calls", "ref::spawn_inner", 3, RefHint{})
	if r.ParseErrors != 0 {
		t.Errorf("parse errors %d, want 0", r.ParseErrors)
	}
}
