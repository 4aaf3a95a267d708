package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/ingest"
)

// Ingest a small repository, then merge a memory note into the graph.
func ExampleRun() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	os.MkdirAll(filepath.Join(root, "app"), 0o755)
	os.WriteFile(filepath.Join(root, "app", "models.py"), []byte("class User:\n    def save(self):\n        return True\n"), 0o644)
	os.WriteFile(filepath.Join(root, "app", "service.py"), []byte("from .models import User\n\n\ndef register():\n    User().save()\n"), 0o644)

	ctx := context.Background()
	out, err := ingest.Run(ctx, ingest.Config{Root: root}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	st := out.Stats
	fmt.Println("files:", st.FilesParsed, "languages:", st.Languages)
	fmt.Println("references resolved:", st.ReferencesResolved, "unresolved:", st.ReferencesUnresolved)
	s, _ := out.Graph.Lookup("file::app/service.py::register")
	t, _ := out.Graph.Lookup("file::app/models.py::User::save")
	_, calls := out.Graph.FindEdgeByName(s, t, "calls")
	fmt.Println("register calls User.save:", calls)

	notes, _ := os.MkdirTemp("", "notes")
	defer os.RemoveAll(notes)
	os.WriteFile(filepath.Join(notes, "MEMORY.md"), []byte("# Users\n- TODO: validate emails in app/models.py\n"), 0o644)
	merged, err := ingest.Run(ctx, ingest.Config{Root: notes, Adapter: "memory", Mode: ingest.Merge}, out.Graph)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := merged.Graph.Lookup("memory::memory::reference::app-models-py")
	f, _ := merged.Graph.Lookup("file::app/models.py")
	_, bridged := merged.Graph.FindEdgeByName(r, f, "references")
	fmt.Println("note linked to code:", bridged)
	// Output:
	// files: 2 languages: map[python:2]
	// references resolved: 4 unresolved: 0
	// register calls User.save: true
	// note linked to code: true
}
