package code

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// A fluent chain binds every link: rs/zerolog's tests write
// log.Log().Objects(…).…Ints16(…).…Msg("") twenty calls long, and each
// call is the method of *Event, not Context's of the same name (go/types:
// Event.Ints16 has 5 callers; 1 was bound).
func TestLongFluentChain(t *testing.T) {
	var chain strings.Builder
	for i := range 20 {
		chain.WriteString(".M" + string(rune('a'+i)) + "()")
	}
	var methods strings.Builder
	for i := range 20 {
		methods.WriteString("func (e *Event) M" + string(rune('a'+i)) + "() *Event { return e }\n")
		methods.WriteString("func (c Context) M" + string(rune('a'+i)) + "() Context { return c }\n")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module example.com/fl\n\ngo 1.22\n",
		"event.go": "package fl\n\ntype Event struct{}\n\ntype Context struct{}\n\nfunc New() *Event { return &Event{} }\n\n" + methods.String(),
		"use.go":   "package fl\n\n// Use chains.\nfunc Use() {\n\tlog := New()\n\tlog" + chain.String() + "\n}\n",
	})
	d := graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
	for i := range 20 {
		m := "file::event.go::Event::M" + string(rune('a'+i))
		if !d.Has("file::use.go::Use", "calls", m) {
			t.Errorf("link %d: Use does not call %s", i+1, m)
		}
	}
}
