package documents

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The keyword claims of prose: a keyword span bound to the one callable
// its paragraph names, or for "this method" to the last call of the
// example above (sqlite-utils' create() paragraph, fix 78264b7).
// Paragraphs naming two callables, or none, claim nothing.
func TestKeywordClaims(t *testing.T) {
	page := strings.Join([]string{
		"Create a table::",
		"",
		"    db[\"cats\"].create({",
		"        \"id\": int,",
		"    }, pk=\"id\")",
		"",
		"The first argument here is a dictionary.",
		"",
		"This method takes optional arguments ``pk=``, ``column_order=``.",
		"",
		"You can pass ``ignore=True`` to silently ignore an existing table.",
		"",
		"Call ``table.insert()`` with ``alter=True`` or",
		":meth:`Table.insert` with ``replace=False``.",
		"",
		"Both ``upsert()`` and ``insert()`` take ``pk=\"id\"``.",
		"",
		"Pass ``debug=True`` to see more.",
		"",
		"If you set ``recompose=True`` on a reactive, Textual will call ``compose()`` again.",
	}, "\n")
	var got []string
	for _, c := range keywordClaims(page) {
		got = append(got, c.callee+" "+c.text+" "+string(rune('0'+c.line/10))+string(rune('0'+c.line%10)))
	}
	want := []string{"create ignore=True 11", "insert alter=True 13", "insert replace=False 14"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

// Through the tool: a claim no def of the name takes is a missing_target;
// a keyword some def takes, a def with **kwargs, and a decorated def
// (unknown) are left alone.
func TestDocumentDriftFindsKeywordsNoDefTakes(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "",
		"src/kit/db.py": "class Table:\n    def create(self, columns, pk=None):\n        pass\n\n    def insert(self, record, alter=False):\n        pass\n\n" +
			"class View:\n    def insert(self, record, replace=False):\n        pass\n\n    def drop(self, **kw):\n        pass\n\n" +
			"def wrap(f):\n    return f\n\n\n@wrap\ndef rebuild(x):\n    pass\n",
		"docs/api.rst": "API\n===\n\nCreate::\n\n    db[\"cats\"].create({\"id\": int}, pk=\"id\")\n\n" +
			"This method takes ``pk=``. You can pass ``ignore=True`` to ignore an existing table.\n\n" +
			"Call ``table.insert()`` with ``alter=True`` or ``replace=True``.\n\n" +
			"Call ``view.drop()`` with ``cascade=True``.\n\nCall ``rebuild()`` with ``fast=True``.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"8 missing_target | the page passes ignore=True to create(), but no def create takes ignore (src/kit/db.py: def Table.create(columns, pk)); git: no version of Table.create took ignore"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
