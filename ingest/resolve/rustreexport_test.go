package resolve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// TestRustPubUseChains: clap's tests call clap::Arg::new. The facade crate
// clap has `pub use clap_builder::*`, clap_builder's lib.rs `pub use
// crate::builder::{Arg, …}`, builder/mod.rs `pub use arg::Arg` (a child
// module named without self::), and Arg is declared in builder/arg.rs. All
// 47 of Arg::new's callers were in arg.rs itself; 82 files call it. And a
// module path never names a method: tokio::spawn bound Command::spawn.
func TestRustPubUseChains(t *testing.T) {
	dir := t.TempDir()
	for p, c := range map[string]string{
		"Cargo.toml":              "[package]\nname = \"clap\"\n[dependencies]\nclap_builder = { path = \"clap_builder\" }\n",
		"clap_builder/Cargo.toml": "[package]\nname = \"clap_builder\"\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	ws := workspace.Detect(dir, []string{"Cargo.toml", "clap_builder/Cargo.toml"})
	reexp := func(r *extract.Result, res ...extract.Reexport) *extract.Result {
		r.Reexports = res
		return r
	}
	star := func(r *extract.Result, mod string) *extract.Result {
		r.Imports = append(r.Imports, extract.Import{Module: mod, Names: []string{"*"}})
		return r
	}
	ix := New([]*extract.Result{
		star(file("src/lib.rs", "rust"), "clap_builder"),
		reexp(file("clap_builder/src/lib.rs", "rust"), extract.Reexport{Name: "Arg", Module: "crate::builder", Target: "Arg"}),
		reexp(file("clap_builder/src/builder/mod.rs", "rust", "func tests::helper"), extract.Reexport{Name: "Arg", Module: "arg", Target: "Arg"}),
		file("clap_builder/src/builder/arg.rs", "rust", "struct Arg", "func Arg::new", "func Arg::long"),
		file("clap_builder/src/builder/command.rs", "rust", "struct Command", "func Command::new"),
		file("clap_builder/src/builder/ext.rs", "rust", "func Arg::long"),
		file("tests/builder/opts.rs", "rust", "func opts"),
	}, ws)
	call := func(name, ref string, h extract.RefHint, want string) rcase {
		st := Resolved
		if want == "" {
			st = Unresolved
		}
		return rcase{name: name, from: "tests/builder/opts.rs", srcEnt: "opts", ref: ref, hint: h, want: want, status: st}
	}
	run(t, ix, []rcase{
		call("type through two pub uses", "Arg", extract.RefHint{Module: "clap"}, "file::clap_builder/src/builder/arg.rs::Arg"),
		call("Type::f through pub uses", "new", extract.RefHint{Module: "clap", Receiver: "Arg", ReceiverType: "Arg"},
			"file::clap_builder/src/builder/arg.rs::Arg::new"),
		call("a method of the type's file first", "long", extract.RefHint{Module: "clap", Receiver: "Arg", ReceiverType: "Arg"},
			"file::clap_builder/src/builder/arg.rs::Arg::long"),
		call("a type nobody re-exports", "new", extract.RefHint{Module: "clap", Receiver: "Command", ReceiverType: "Command"}, ""),
		call("module::f is never a method", "new", extract.RefHint{Module: "clap_builder::builder", Receiver: "clap_builder::builder"}, ""),
		call("module::f in a nested module", "helper", extract.RefHint{Module: "clap_builder::builder", Receiver: "clap_builder::builder"},
			"file::clap_builder/src/builder/mod.rs::tests::helper"),
		{name: "child module without self::", from: "clap_builder/src/builder/mod.rs", ref: "Command", rel: extract.RelImports,
			hint: extract.RefHint{Module: "command"}, want: "file::clap_builder/src/builder/command.rs::Command", status: Resolved},
	})
}

// TestRustImplInAnotherFile: `use crate::runtime::driver::op::Op;
// Op::write_at(…)` means the write_at of an `impl Op<Write>` block in
// io/uring/write.rs (tokio), a file of the crate other than Op's.
func TestRustImplInAnotherFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte("[package]\nname = \"tokio\"\n"), 0o644)
	ws := workspace.Detect(dir, []string{"Cargo.toml"})
	ix := New([]*extract.Result{
		file("src/runtime/driver/op.rs", "rust", "struct Op", "func Op::new"),
		file("src/io/uring/write.rs", "rust", "func Op::write_at"),
		file("src/io/other.rs", "rust", "func Other::write_at"),
		file("src/fs/write.rs", "rust", "func write_uring"),
	}, ws)
	run(t, ix, []rcase{{name: "impl in another file", from: "src/fs/write.rs", srcEnt: "write_uring", ref: "write_at",
		hint: extract.RefHint{Module: "crate::runtime::driver::op", Receiver: "Op", ReceiverType: "Op"},
		want: "file::src/io/uring/write.rs::Op::write_at", status: Resolved}})
}

// TestRustIntegrationTestsAreCrates: a file directly under tests/ is a
// crate of its own; its items are no candidates for another file (serde's
// Target::deserialize bound another test file's private fake_serde trait).
func TestRustIntegrationTestsAreCrates(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "suite"), 0o755)
	os.WriteFile(filepath.Join(dir, "suite/Cargo.toml"), []byte("[package]\nname = \"suite\"\n"), 0o644)
	ws := workspace.Detect(dir, []string{"suite/Cargo.toml"})
	ix := New([]*extract.Result{
		file("core/src/de.rs", "rust", "iface Deserialize", "func Deserialize::deserialize"),
		file("suite/tests/test_path.rs", "rust", "iface fake::Deserialize", "func fake::Deserialize::deserialize"),
		file("suite/tests/test_any.rs", "rust", "func test_enum"),
		file("suite/tests/common/mod.rs", "rust", "func helper"),
		file("core/src/rt/tests/mod.rs", "rust", "func rt_helper"),
		file("core/src/rt/tests/other.rs", "rust", "func user"),
	}, ws)
	run(t, ix, []rcase{
		{name: "another test crate's item", from: "suite/tests/test_any.rs", srcEnt: "test_enum", ref: "deserialize",
			hint: extract.RefHint{Receiver: "Deserialize", ReceiverType: "Deserialize"}, want: "file::core/src/de.rs::Deserialize::deserialize", status: Resolved},
		{name: "its own item", from: "suite/tests/test_path.rs", ref: "deserialize",
			hint: extract.RefHint{Receiver: "Deserialize", ReceiverType: "Deserialize"}, want: "file::suite/tests/test_path.rs::fake::Deserialize::deserialize", status: Resolved},
		{name: "a tests module inside src is a module", from: "core/src/rt/tests/other.rs", srcEnt: "user", ref: "rt_helper",
			hint: extract.RefHint{Module: "super"}, want: "file::core/src/rt/tests/mod.rs::rt_helper", status: Resolved},
	})
}
