package tools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
)

const viewMaxFileSize = 64 << 20 // larger files are refused

// viewTarget is a user's path judged for reading: accepted by the guard,
// existing, and looked up in the graph.
type ViewTarget struct {
	Res       pathguard.Resolved
	GraphPath string // the file's path in graph terms
	NS        string // the namespace of its root ("" for a bare root)
	InGraph   bool
}

// resolveView judges raw against the bundle's roots (view and batch_view
// share it); param names the argument in errors.
func ResolveView(b *session.Bundle, raw, param string) (ViewTarget, error) {
	var t ViewTarget
	if err := NeedRoots(b); err != nil {
		return t, err
	}
	rs := BundleSpace(b)
	res, graphPath, greal, err := rs.Resolve(BundleGuard(b), raw)
	if err != nil {
		return t, GuardError(err, param)
	}
	t.Res, t.GraphPath, t.NS = res, graphPath, rs.NamespaceOf(res.Root)
	if !res.Exists {
		e := Errorf("Paths are relative to an ingest root or absolute inside one; glob lists the indexed files.", "%s %q does not exist under %s", param, raw, res.Root)
		if near := closestPaths(BundleGraphFiles(b), res.Rel, 5); len(near) > 0 {
			e.Extra = map[string]any{"did_you_mean": near}
			e.Hint = fmt.Sprintf("Closest indexed files: %s.", strings.Join(near, ", "))
		}
		return t, e.WithNext(fmt.Sprintf("Call glob with pattern %q to find the file.", "**/"+path.Base(res.Rel)))
	}
	// The graph may know the file by the name given or, through a
	// symlink inside the roots, by its target's name.
	for _, p := range []string{graphPath, greal} {
		if p == "" {
			continue
		}
		_, inFile := b.Graph.Lookup(rs.FileID(p))
		_, inIndex := BundleGraphFiles(b).ByPath[p]
		if inFile || inIndex {
			t.GraphPath, t.InGraph = p, true
			break
		}
	}
	if !t.InGraph && greal != "" {
		t.GraphPath = greal // ingest the target, not the link
	}
	return t, nil
}

// readView reads an accepted path as text: refused when it is a
// directory, special, too large or binary.
func ReadView(res pathguard.Resolved, param string) ([]byte, os.FileInfo, error) {
	data, fi, err := ReadGuarded(res, param)
	if err != nil {
		return nil, nil, err
	}
	if textsearch.IsBinary(data) {
		return nil, nil, Errorf("view shows text only. glob lists files with their extension; search skips binary files too.", "%s is a binary file (NUL byte in the first %d bytes, %d bytes in total)", res.Rel, textsearch.SniffLen, len(data)).
			WithNext("Pick a source or text file instead.")
	}
	return data, fi, nil
}

// readGuarded reads an accepted path, refusing directories, special files
// and files too large to show.
func ReadGuarded(res pathguard.Resolved, param string) ([]byte, os.FileInfo, error) {
	f, err := pathguard.Open(res)
	if err != nil {
		var pe *pathguard.Error
		if errors.As(err, &pe) {
			return nil, nil, GuardError(err, param)
		}
		return nil, nil, Errorf("Check the file's permissions; glob lists the indexed files.", "cannot open %s: %v", res.Rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, Errorf("Retry; the file may be changing.", "cannot stat %s: %v", res.Rel, err)
	}
	if fi.IsDir() {
		pat := strings.TrimSuffix(res.Rel, "/") + "/**"
		if res.Rel == "" {
			pat = "**"
		}
		return nil, nil, Errorf("view reads files; a directory's files are listed by glob.", "%q is a directory", displayRel(res.Rel)).
			WithNext(fmt.Sprintf("Call glob with pattern %q.", pat)).
			WithExample(map[string]any{"agent_id": "claude", "file_path": path.Join(res.Rel, "<file>")})
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, Errorf("Only regular files can be viewed.", "%s is not a regular file (%s)", res.Rel, fi.Mode().Type())
	}
	if fi.Size() > viewMaxFileSize {
		return nil, nil, Errorf("Use search with a scope on this file to find the lines you need.", "%s is %d bytes, over the %d-byte view limit", res.Rel, fi.Size(), viewMaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, viewMaxFileSize+1))
	if err != nil {
		return nil, nil, Errorf("Retry; the file may be changing.", "cannot read %s: %v", res.Rel, err)
	}
	return data, fi, nil
}

func displayRel(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
