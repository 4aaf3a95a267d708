package extref

import (
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Repo tells which imports a repository provides itself, from its file
// list and its manifests (go.mod, package.json, Cargo.toml, __init__.py).
type Repo struct {
	ws *workspace.Info
	// names are directory names and source file stems anywhere in the
	// tree (a Python import "backend.auth" is local when "backend" is).
	names map[string]bool
	// suffixes are every trailing run of path segments of the files and
	// directories ("x/y.h", "y.h"), for headers, Ruby requires and JVM
	// packages.
	suffixes map[string]bool
}

// NewRepo describes a repository from its root-relative file paths and its
// workspace (nil: none was read).
func NewRepo(files []string, ws *workspace.Info) *Repo {
	r := &Repo{ws: ws, names: map[string]bool{}, suffixes: map[string]bool{}}
	seenDir := map[string]bool{}
	for _, f := range files {
		segs := strings.Split(f, "/")
		base := segs[len(segs)-1]
		r.names[strings.TrimSuffix(base, path.Ext(base))] = true
		for i := range segs {
			r.suffixes[strings.Join(segs[i:], "/")] = true
		}
		for d := path.Dir(f); d != "." && !seenDir[d]; d = path.Dir(d) {
			seenDir[d] = true
			ds := strings.Split(d, "/")
			r.names[ds[len(ds)-1]] = true
			for i := range ds {
				r.suffixes[strings.Join(ds[i:], "/")] = true
			}
		}
	}
	return r
}

// Local reports whether the repository provides an import itself.
func (r *Repo) Local(ref Ref) bool {
	if ref.Kind != Import {
		return false
	}
	switch ref.Ecosystem {
	case "python":
		return r.names[ref.Key]
	case "go":
		if r.ws != nil {
			if _, ok, known := r.ws.GoModule(ref.Value); known {
				return ok
			}
		}
		return !ref.Stdlib && r.suffixes[ref.Value]
	case "npm":
		return r.ws != nil && r.ws.NpmPackage(ref.Key) != nil
	case "cargo":
		return (r.ws != nil && r.ws.Crate(ref.Key) != nil) || r.names[ref.Key]
	case "jvm":
		return r.suffixes[strings.ReplaceAll(ref.Value, ".", "/")]
	case "c":
		return r.suffixes[ref.Value]
	case "ruby":
		return r.suffixes[ref.Value+".rb"] || r.suffixes["lib/"+ref.Value+".rb"]
	}
	return false
}
