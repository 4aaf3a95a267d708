package code

import (
	"hash/maphash"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
	"github.com/m1nd-go/m1nd/ingest/testlink"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// RelDeclares links a declaration file to the module whose interface it
// declares: x.pyi declares x.py, x.d.ts declares x.js.
const RelDeclares = "declares"

// Derived edges are computed by enrichment from the whole tree rather than
// from one file: test links, declarations, Go interface satisfaction. Both
// paths compute them whole, so a patch drops every one of them and adds
// the set again (isDerived says which edges a patch drops).

// fileFacts is what derived edges need to know about one file.
type fileFacts struct {
	path, lang string
	// imports are the source paths its import edges were bound to (a
	// directory's with a trailing slash).
	imports []string
	res     *extract.Result
}

// derivedEdge is an edge between external IDs.
type derivedEdge struct {
	src, dst, rel string
}

// derivedEdges computes the derived edges of files, in a stable order.
// impls, when set, returns the files' Go implementations computed by the
// caller (else they are computed here).
// read returns a file's source by its root-relative path (nil: none read).
func derivedEdges(files []fileFacts, ws *workspace.Info, read func(string) ([]byte, error), impls func() []resolve.Implementation) []derivedEdge {
	out := testEdges(files, read)
	out = append(out, declareEdges(files)...)
	out = append(out, prototypeEdges(files)...)
	if impls == nil {
		impls = func() []resolve.Implementation {
			results := make([]*extract.Result, 0, len(files))
			for _, f := range files {
				results = append(results, f.res)
			}
			return resolve.GoImplements(results, ws)
		}
	}
	for _, im := range impls() {
		out = append(out, derivedEdge{im.Type, im.Interface, extract.RelImplements})
	}
	return out
}

// testEdges links test files to the files they test (testlink: names and
// layout, else imports), keeping a name's link only when the test can reach its subject: it sits
// in the subject's directory, or one of its imports is the subject or the
// subject's package — or it imports nothing the graph knows, so nothing
// contradicts the name. A tests/test_array.py named like bench/array.py
// but importing only the library does not test the benchmark.
func testEdges(files []fileFacts, read func(string) ([]byte, error)) []derivedEdge {
	paths := make([]string, len(files))
	byPath := make(map[string]*fileFacts, len(files))
	for i := range files {
		paths[i] = files[i].path
		byPath[paths[i]] = &files[i]
	}
	reach := func(test, subject string) bool { return reaches(byPath[test], subject) }
	var out []derivedEdge
	for _, l := range testlink.FindWith(paths, reach) {
		if reaches(byPath[l.Test], l.Subject) {
			out = append(out, derivedEdge{extract.FileID(l.Test), extract.FileID(l.Subject), RelTests})
		}
	}
	// A test no name pairs tests what it imports (ky's test/retry.ts,
	// source/index.ts), unless it only reads it as a flag (a Python test
	// that imports PY_3_13_PLUS from attr/_compat.py for a skipif).
	var src []byte
	var srcOf string
	for _, l := range testlink.ImportLinks(paths, func(t string) []string { return byPath[t].imports }) {
		if read != nil && byPath[l.Test].lang == "python" {
			if srcOf != l.Test {
				src, srcOf = nil, l.Test
				if b, err := read(l.Test); err == nil {
					src = b
				}
			}
			subj, _ := read(l.Subject) // (nil when unread: no re-exports checked)
			if src != nil && testlink.PyFlagsOnly(src, subj, l.Test, l.Subject) {
				continue
			}
		}
		out = append(out, derivedEdge{extract.FileID(l.Test), extract.FileID(l.Subject), RelTests})
	}
	return out
}

func reaches(test *fileFacts, subject string) bool {
	dir := path.Dir(subject)
	if path.Dir(test.path) == dir || len(test.imports) == 0 {
		return true
	}
	return slices.ContainsFunc(test.imports, func(p string) bool {
		return p == subject || strings.TrimSuffix(p, "/") == dir
	})
}

// declareEdges pairs declaration files with the modules beside them:
// x.pyi with x.py, x.d.ts (.d.mts, .d.cts) with x.js (.mjs, .cjs).
func declareEdges(files []fileFacts) []derivedEdge {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f.path] = true
	}
	var out []derivedEdge
	for _, f := range files {
		var targets []string
		switch {
		case strings.HasSuffix(f.path, ".pyi"):
			targets = []string{strings.TrimSuffix(f.path, ".pyi") + ".py"}
		case strings.HasSuffix(f.path, ".d.ts"):
			stem := strings.TrimSuffix(f.path, ".d.ts")
			targets = []string{stem + ".js", stem + ".mjs", stem + ".cjs"}
		case strings.HasSuffix(f.path, ".d.mts"):
			targets = []string{strings.TrimSuffix(f.path, ".d.mts") + ".mjs"}
		case strings.HasSuffix(f.path, ".d.cts"):
			targets = []string{strings.TrimSuffix(f.path, ".d.cts") + ".cjs"}
		}
		for _, t := range targets {
			if have[t] {
				out = append(out, derivedEdge{extract.FileID(f.path), extract.FileID(t), RelDeclares})
				break
			}
		}
	}
	return out
}

// prototypeEdges links a C or C++ definition to the prototype it defines
// in a header its file includes, directly or through other headers
// (cJSON.c's cJSON_Parse implements cJSON.h's cJSON_Parse; foo.cpp's
// Foo::bar the declaration in class Foo): callers bind to the definition,
// so without the edge a change to the prototype would reach nothing.
// Names are matched by their path below the file.
func prototypeEdges(files []fileFacts) []derivedEdge {
	protos := map[string]string{} // header path + "::" + name path → prototype ID
	for _, f := range files {
		for _, n := range cFunctions(f) {
			if slices.Contains(n.Tags, extract.KindDeclaration) {
				protos[f.path+"::"+namePath(f.path, n.ID)] = n.ID
			}
		}
	}
	if len(protos) == 0 {
		return nil
	}
	importsOf := make(map[string][]string, len(files))
	for _, f := range files {
		importsOf[f.path] = f.imports
	}
	var out []derivedEdge
	for _, f := range files {
		var headers []string
		for _, n := range cFunctions(f) {
			if slices.Contains(n.Tags, extract.KindDeclaration) {
				continue
			}
			if headers == nil {
				headers = includedHeaders(f.imports, importsOf)
			}
			for _, h := range headers {
				if p, ok := protos[h+"::"+namePath(f.path, n.ID)]; ok {
					out = append(out, derivedEdge{n.ID, p, extract.RelImplements})
				}
			}
		}
	}
	return out
}

// maxIncludeDepth bounds how far prototypeEdges follows headers that
// include headers (unity.c includes unity.h, which includes the
// unity_internals.h that declares its functions).
const maxIncludeDepth = 3

// includedHeaders lists the files reachable from imports through at most
// maxIncludeDepth includes, each once, in the order first reached.
func includedHeaders(imports []string, importsOf map[string][]string) []string {
	seen := map[string]bool{}
	level := imports
	var out []string
	for d := 0; d < maxIncludeDepth && len(level) > 0; d++ {
		var next []string
		for _, h := range level {
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
				next = append(next, importsOf[h]...)
			}
		}
		level = next
	}
	return out
}

// cFunctions are the functions and methods of a C or C++ file: its
// skeleton's nodes (cSkeleton), whether res is the skeleton (a full build,
// an unchanged file) or a changed file's whole result, so that both paths
// pair the same nodes.
func cFunctions(f fileFacts) []extract.Node {
	if f.res == nil || !cFamily(f.res.Language) {
		return nil
	}
	return cSkeleton(f.res).Nodes
}

func cFamily(lang string) bool { return lang == "c" || lang == "cpp" }

// namePath is a node's ID below its file: "Foo::bar" of file::x.cpp::Foo::bar.
func namePath(file, id string) string {
	return strings.TrimPrefix(id, extract.FileID(file)+"::")
}

// derivedSeed keys derivedSignature (stable within a process, which is as
// long as a layout lives).
var derivedSeed = maphash.MakeSeed()

// derivedSignature sums up what a file contributes to the derived edges:
// its imports (test links), for Go its types, interfaces and methods
// (interface satisfaction), for C and C++ its functions (prototypes). A
// patch whose files keep their signatures keeps the derived edges as they
// are.
func derivedSignature(res *extract.Result, imports []string) uint64 {
	var h maphash.Hash
	h.SetSeed(derivedSeed)
	for _, p := range slices.Sorted(slices.Values(imports)) {
		h.WriteString(p)
		h.WriteByte(0)
	}
	h.WriteByte(1)
	if res != nil && cFamily(res.Language) {
		for _, n := range cSkeleton(res).Nodes {
			h.WriteString(n.ID)
			h.WriteByte(byte(len(n.Tags)))
		}
	}
	if res != nil && res.Language == "go" {
		for _, n := range res.Nodes {
			for _, t := range n.Tags {
				switch t {
				case extract.KindInterface, extract.KindStruct, extract.KindTypeAlias, extract.KindMethod:
					a := res.Arity[n.ID]
					h.WriteString(n.ID)
					h.Write([]byte{0, a.Params, a.Results})
				}
			}
		}
	}
	return h.Sum64()
}
