package testlink

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportLinks: a test no name pairs with a subject is linked to the
// source files it imports (ky's test/retry.ts → source/index.ts); a test
// Find pairs by name keeps only that link; helpers, fixtures, imported
// tests and other languages' files are no subjects, and a file under a
// JS test directory's helpers/, or a test_helper.rb, is no test.
func TestImportLinks(t *testing.T) {
	files := []string{
		"source/index.ts", "source/core/Ky.ts", "source/utils/merge.ts",
		"test/retry.ts", "test/hooks.ts", "test/helpers/server.ts", "test/_setup.ts",
		"test/types.d.ts", "src/app.py", "src/cart.py", "src/model.py", "tests/test_flow.py",
		"tests/conftest.py", "tests/test_cart.py", "tests/test_other.py",
		"web/widget.js", "web/widget.test.js", "web/page.js",
		"lib/app/base.rb", "test/test_helper.rb", "lib/app/test_helpers.rb",
	}
	imports := map[string][]string{
		"test/retry.ts":           {"source/index.ts", "test/helpers/server.ts", "source/index.ts"},
		"test/hooks.ts":           {"source/index.ts", "source/utils/merge.ts", "test/retry.ts"},
		"test/helpers/server.ts":  {"source/index.ts"},
		"test/_setup.ts":          {"source/core/Ky.ts"},
		"tests/test_flow.py":      {"src/app.py", "src/model.py", "tests/conftest.py", "src/"},
		"tests/test_cart.py":      {"src/cart.py", "src/model.py"},
		"web/widget.test.js":      {"web/widget.js", "web/page.js"},
		"test/test_helper.rb":     {"lib/app/base.rb"},
		"lib/app/test_helpers.rb": {"lib/app/base.rb"},
	}
	want := []Link{
		{"test/hooks.ts", "source/index.ts"},
		{"test/hooks.ts", "source/utils/merge.ts"},
		{"test/retry.ts", "source/index.ts"},
		{"tests/test_flow.py", "src/app.py"},
		{"tests/test_flow.py", "src/model.py"},
	}
	got := ImportLinks(files, func(f string) []string { return imports[f] })
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("import links (-want +got):\n%s", d)
	}
}

// TestRubySpecPrefix: rack names its minitest/spec files test/spec_x.rb;
// spec/spec_helper.rb is RSpec's setup, no test of a helper.rb.
func TestRubySpecPrefix(t *testing.T) {
	files := []string{"lib/rack/builder.rb", "test/spec_builder.rb", "lib/helper.rb", "spec/spec_helper.rb"}
	want := []Link{{"test/spec_builder.rb", "lib/rack/builder.rb"}}
	if d := cmp.Diff(want, Find(files)); d != "" {
		t.Errorf("links (-want +got):\n%s", d)
	}
}
