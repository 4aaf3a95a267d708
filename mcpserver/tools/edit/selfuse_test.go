package edit

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A package whose imports fail without any edit (a dependency not
// installed, as typer's annotated_doc was here): only syntax can be
// checked. A function renamed but still called in its own file is BROKEN
// (it was SAFE); a harmless edit is RISKY, not SAFE, and says why.
func TestVerifyUncheckableEdits(t *testing.T) {
	t.Parallel()
	needPython(t)
	files := map[string]string{
		"src/pk/__init__.py": "import m1nd_dependency_not_installed\n\nfrom .util import show\n",
		"src/pk/util.py":     "def to_text(x):\n    return str(x)\n\n\ndef show(x):\n    return to_text(x)\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)

	renamed := strings.Replace(files["src/pk/util.py"], "def to_text(", "def to_text_renamed(", 1)
	out, v, rep := verifyBatch(t, d, "src/pk/util.py", renamed)
	if v != edit.Broken || out["status"] != "restored" {
		t.Fatalf("rename still called in its file: verdict %s, status %v, reasons %v", v, out["status"], rep["reasons"])
	}
	if uses := removedUses(rep); !slices.Contains(uses, "src/pk/util.py:6:broken") {
		t.Errorf("removed_names_used %v lacks src/pk/util.py:6:broken", uses)
	}

	harmless := strings.Replace(files["src/pk/util.py"], "return str(x)", "return str(x).strip()", 1)
	_, v, rep = verifyBatch(t, d, "src/pk/util.py", harmless)
	reasons := strings.Join(tooltest.ToStrings(rep["reasons"]), "\n")
	if v != edit.Risky || !strings.Contains(reasons, "nothing beyond syntax ran the written code") {
		t.Errorf("an edit no import or test could run: verdict %s, reasons:\n%s", v, reasons)
	}
}

// A Ruby method renamed while its class still calls it (sinatra's
// process_route, inside module Sinatra, class Base) is BROKEN and
// restored: no build check runs Ruby here, and the removed-name check
// knew only Python and JavaScript top-level names (it was SAFE). The
// same rename done everywhere is not blamed.
func TestVerifyRubyMethodStillCalled(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"lib/s/base.rb": "module S\n  class Base\n    def route!\n      process_route(1)\n    end\n\n    def process_route(x)\n      x\n    end\n  end\nend\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	renamed := strings.Replace(files["lib/s/base.rb"], "def process_route(", "def process_route_renamed(", 1)
	out, v, rep := verifyBatch(t, d, "lib/s/base.rb", renamed)
	if v != edit.Broken || out["status"] != "restored" {
		t.Fatalf("rename still called in its class: verdict %s, status %v, reasons %v", v, out["status"], rep["reasons"])
	}
	if uses := removedUses(rep); !slices.Contains(uses, "lib/s/base.rb:4:broken") {
		t.Errorf("removed_names_used %v lacks lib/s/base.rb:4:broken", uses)
	}
	everywhere := strings.ReplaceAll(files["lib/s/base.rb"], "process_route", "process_route_renamed")
	if _, v, rep := verifyBatch(t, d, "lib/s/base.rb", everywhere); v == edit.Broken {
		t.Errorf("a rename done everywhere is BROKEN: %v", rep["reasons"])
	}
}

// Removing an override leaves the class's own call to the base's method:
// not broken when a base the graph holds declares it, a warning naming
// the base when the base is a library's the graph does not hold.
func TestVerifyRemovedOverride(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"lib/s/core.rb": "module S\n  class Core\n    def process_route(x)\n      x\n    end\n  end\nend\n",
		"lib/s/base.rb": "module S\n  class Base < Core\n    def route!\n      process_route(1)\n    end\n\n    def process_route(x)\n      super\n    end\n  end\nend\n",
		"lib/s/ext.rb":  "module S\n  class Ext < Rack::Thing\n    def route!\n      process_route(1)\n    end\n\n    def process_route(x)\n      super\n    end\n  end\nend\n",
	}
	d, _ := tooltest.FixtureRepo(t, files)
	noOverride := strings.Replace(files["lib/s/base.rb"], "\n    def process_route(x)\n      super\n    end\n", "", 1)
	if _, v, rep := verifyBatch(t, d, "lib/s/base.rb", noOverride); v == edit.Broken || len(removedUses(rep)) > 0 {
		t.Errorf("an override removed, the base's method answers: verdict %s, uses %v", v, removedUses(rep))
	}
	noOverride = strings.Replace(files["lib/s/ext.rb"], "\n    def process_route(x)\n      super\n    end\n", "", 1)
	_, v, rep := verifyBatch(t, d, "lib/s/ext.rb", noOverride)
	if uses := removedUses(rep); v == edit.Broken || !slices.Contains(uses, "lib/s/ext.rb:4:warning") {
		t.Errorf("a library base may answer: verdict %s, uses %v", v, uses)
	}
}
