package testlink

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFind(t *testing.T) {
	files := []string{
		// Python
		"app/models.py", "app/test_models.py", "app/views.py", "tests/test_views.py",
		"app/utils.py", "lib/utils.py", "lib/utils_test.py", "conftest.py",
		// Go
		"store/db.go", "store/db_test.go", "store/export_test.go",
		// JS / TS
		"web/src/user.ts", "web/src/user.test.ts", "web/src/cart.js", "web/src/cart.spec.js",
		"web/src/__tests__/order.tsx", "web/src/order.tsx", "web/src/button.tsx", "web/test/button.test.tsx",
		// JVM
		"svc/src/main/java/com/acme/Order.java", "svc/src/test/java/com/acme/OrderTest.java",
		"other/com/acme/Order.java", "svc/src/test/kotlin/com/acme/CartTests.kt", "svc/src/main/kotlin/com/acme/Cart.kt",
		// Ruby
		"lib/foo/bar.rb", "spec/foo/bar_spec.rb", "test/test_baz.rb", "lib/baz.rb",
		// C++
		"src/codec.cc", "src/codec.h", "test/codec_unittest.cc",
		// Rust
		"crates/core/src/lib.rs", "crates/core/src/parser.rs", "crates/core/tests/parser.rs", "crates/core/tests/smoke.rs",
		// PHP, Elixir, shell
		"src/Cart.php", "tests/CartTest.php", "lib/acme/worker.ex", "test/acme/worker_test.exs",
		"bin/deploy.sh", "test/deploy.bats",
		// tests without subjects
		"tests/test_nothing.py", "x_test.go",
	}
	want := []Link{
		{"app/test_models.py", "app/models.py"},
		{"crates/core/tests/parser.rs", "crates/core/src/parser.rs"},
		{"crates/core/tests/smoke.rs", "crates/core/src/lib.rs"},
		{"lib/utils_test.py", "lib/utils.py"},
		{"spec/foo/bar_spec.rb", "lib/foo/bar.rb"},
		{"store/db_test.go", "store/db.go"},
		{"svc/src/test/java/com/acme/OrderTest.java", "svc/src/main/java/com/acme/Order.java"},
		{"svc/src/test/kotlin/com/acme/CartTests.kt", "svc/src/main/kotlin/com/acme/Cart.kt"},
		{"test/acme/worker_test.exs", "lib/acme/worker.ex"},
		{"test/codec_unittest.cc", "src/codec.cc"},
		{"test/deploy.bats", "bin/deploy.sh"},
		{"test/test_baz.rb", "lib/baz.rb"},
		{"tests/CartTest.php", "src/Cart.php"},
		{"tests/test_views.py", "app/views.py"},
		{"web/src/__tests__/order.tsx", "web/src/order.tsx"},
		{"web/src/cart.spec.js", "web/src/cart.js"},
		{"web/src/user.test.ts", "web/src/user.ts"},
		{"web/test/button.test.tsx", "web/src/button.tsx"},
	}
	if diff := cmp.Diff(want, Find(files)); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
}

// TestFindWithPrefersWhatTheTestReaches: of two files a test is named for,
// the one it imports wins over the one the layout would pick.
func TestFindWithPrefersWhatTheTestReaches(t *testing.T) {
	files := []string{"examples/table.py", "rich/table.py", "tests/test_table.py"}
	layout := Find(files)
	reach := func(test, subject string) bool { return subject == "rich/table.py" }
	got := FindWith(files, reach)
	if len(got) != 1 || got[0] != (Link{"tests/test_table.py", "rich/table.py"}) {
		t.Errorf("FindWith = %v (Find alone gives %v)", got, layout)
	}
	if got := FindWith(files, func(string, string) bool { return false }); !slices.Equal(got, layout) {
		t.Errorf("no accepted candidate: %v, want the layout's choice %v", got, layout)
	}
}
