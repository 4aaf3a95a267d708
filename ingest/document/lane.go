package document

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/code"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// Adapter is one document adapter: the universal lane, one structured
// format, or the router. The zero value is not usable; use the package's
// adapter values (Universal, Router, …).
type Adapter struct {
	name string
	// force parses every file with one of exts as this format.
	force Format
	exts  []string
	// formats are what the adapter accepts by detection (force unset).
	formats []Format
	// route: the router — a tree that is mostly code goes to the code
	// adapter, documents of every family are read with their own parser.
	route bool
	// docsOnly keeps the router from handing code trees to the code
	// adapter; filter, when set, limits the formats read.
	docsOnly bool
	filter   func(Format) bool
}

// DocumentsOnly is the router without its code fallback, reading only
// the formats accept takes (nil: all): what document watchers ingest a
// root or file with.
func DocumentsOnly(accept func(Format) bool) Adapter {
	return Adapter{name: Router.name, route: true, docsOnly: true, filter: accept}
}

// The document adapters, by registry name.
var (
	Universal = Adapter{name: "universal", formats: []Format{Markdown, RST, AsciiDoc, Text, HTML, PDF, DOCX, Light}}
	Router    = Adapter{name: "auto", route: true}
	LightMD   = Adapter{name: "light", force: Light, exts: []string{".md", ".markdown"}}
	Bib       = Adapter{name: "bibtex", force: BibTeX, exts: []string{".bib", ".bibtex"}}
	Article   = Adapter{name: "article", force: JATS, exts: []string{".xml", ".nxml"}}
	PatentXML = Adapter{name: "patent", force: Patent, exts: []string{".xml"}}
	RFCXML    = Adapter{name: "rfc", force: RFC, exts: []string{".xml"}}
	CrossRefJ = Adapter{name: "crossref", force: CrossRef, exts: []string{".json"}}
)

// Registration is an adapter with the aliases it is registered under.
type Registration struct {
	Adapter adapter.Adapter
	Aliases []string
}

// Registrations lists the document adapters for the ingest registry.
func Registrations() []Registration {
	return []Registration{
		{Universal, nil},
		{Router, []string{"document", "documents"}},
		{LightMD, []string{"l1ght"}},
		{Bib, []string{"bib"}},
		{Article, []string{"jats"}},
		{PatentXML, nil},
		{RFCXML, nil},
		{CrossRefJ, []string{"doi"}},
	}
}

// Name implements adapter.Adapter.
func (a Adapter) Name() string { return a.name }

// Domain implements adapter.Adapter.
func (a Adapter) Domain() string { return "document" }

// Reads reports whether the adapter produces documents of format f (the
// router produces every format).
func (a Adapter) Reads(f Format) bool {
	switch {
	case a.route:
		return true
	case a.force != "":
		return f == a.force
	}
	return slices.Contains(a.formats, f)
}

// format decides how a walked file is read ("" = not by this adapter).
func (a Adapter) format(f walk.File) Format {
	ext := strings.ToLower(path.Ext(f.Rel))
	if a.force != "" {
		if slices.Contains(a.exts, ext) {
			return a.force
		}
		return ""
	}
	var head []byte
	switch ext {
	case ".md", ".markdown", ".mdown", ".mkd", ".xml", ".nxml", ".json":
		head = readHead(f.Abs)
	}
	d := DetectFile(f.Rel, head)
	if a.route {
		if IsDocument(d) && (a.filter == nil || a.filter(d)) {
			return d
		}
		return ""
	}
	if d == Light && !slices.Contains(a.formats, Light) {
		d = Markdown
	}
	if slices.Contains(a.formats, d) {
		if d == Light {
			return Markdown // the universal lane reads L1GHT as plain Markdown
		}
		return d
	}
	return ""
}

// Ingest implements adapter.Adapter.
func (a Adapter) Ingest(ctx context.Context, req adapter.Request) (*adapter.Output, error) {
	start := time.Now()
	maxNodes, deadline := req.Budget(start)
	ns := strings.TrimSpace(req.Namespace)
	if ns == "" {
		ns = DefaultNamespace
	}
	if err := CheckNamespace(ns); err != nil {
		return nil, err
	}
	wr, err := walk.Walk(ctx, req.Root, walk.Options{IncludeDotfiles: req.IncludeDotfiles, DotfilePatterns: req.DotfilePatterns})
	if err != nil {
		return nil, fmt.Errorf("%s adapter: %w", a.name, err)
	}
	if a.route && !a.docsOnly {
		if g := DetectDirectory(wr.Files); g.Format == Code {
			return code.Adapter{}.Ingest(ctx, req) // a source tree: the default pipeline
		}
	}
	st := adapter.Stats{Adapter: a.name, Languages: map[string]int{}, FilesIgnored: wr.SkippedIgnored, FilesSkippedLarge: wr.SkippedLarge}
	type doc struct {
		f   walk.File
		fmt Format
	}
	var docs []doc
	for _, f := range wr.Files {
		if ff := a.format(f); ff != "" {
			docs = append(docs, doc{f, ff})
		}
	}
	st.FilesScanned = len(docs)
	lay := layoutOf(wr)
	hist := a.history(ctx, req, wr, lay, &st)
	b := newBuilder(ns, lay.base)
	skippedProvider := map[Format]int{}
	for i, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if b.g.NumNodes() >= maxNodes || time.Now().After(deadline) {
			st.Partial, st.BudgetExhausted = true, "max_nodes"
			if b.g.NumNodes() < maxNodes {
				st.BudgetExhausted = "timeout"
			}
			break
		}
		rel := lay.path(d.f.Rel)
		c, lines, err := readDocument(ctx, d.f.Abs, rel, d.fmt)
		switch {
		case err == errBinary:
			st.FilesSkippedBinary++
			continue
		case err == errEncoding:
			st.FilesSkippedEncoding++
			continue
		case err == errNoProvider:
			skippedProvider[d.fmt]++
			continue
		case err != nil:
			st.FilesFailed++
			if len(st.Warnings) < 20 {
				st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %v", rel, err))
			}
			continue
		}
		t, freq := d.f.ModTime(), gitmeta.NotGitFrequency
		if hist != nil {
			fs := hist.Files[d.f.Rel]
			freq = gitmeta.ChangeFrequency(fs.Commits)
			if fs.LastCommit > 0 {
				t = fs.LastCommit
			}
		}
		b.add(c, t, freq, lines)
		st.FilesParsed++
		st.Languages[string(c.Format)]++
		req.Report(adapter.Progress{Phase: adapter.PhaseBuild, Done: i + 1, Total: len(docs)})
	}
	for _, f := range []Format{PDF, DOCX} {
		if n := skippedProvider[f]; n > 0 {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%d %s file(s) skipped: no provider on PATH (%s)", n, f, providerHint(f)))
		}
	}
	st.ReferencesResolved = Bind(b.g)
	b.g.Finalize()
	st.LabelCollisions = b.collisions
	st.NodesCreated = b.g.NumNodes()
	st.EdgesCreated = adapter.CountEdges(b.g)
	st.GraphNodes, st.GraphEdges = st.NodesCreated, st.EdgesCreated
	st.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	req.Report(adapter.Progress{Phase: adapter.PhaseDone, Done: st.FilesParsed, Total: len(docs)})
	info := adapter.RootInfo{Path: wr.Root, GitRoot: wr.RepoRoot}
	if hist != nil {
		info.GitBranch, info.GitHead, info.GitHeadTime, info.GitDetached, info.GitShallow = hist.Branch, hist.Head, hist.HeadTime, hist.Detached, hist.Shallow
	}
	return &adapter.Output{Graph: b.g, Stats: st, Root: info}, nil
}

// layout maps walk-relative paths to document paths: relative to the git
// work tree when there is one, else to the walked root.
type layout struct {
	base string // absolute directory document paths are relative to
	sub  string // the walked root relative to base ("" = base itself)
}

func layoutOf(wr *walk.Result) layout {
	base := wr.RepoRoot
	if base == "" {
		base = projectRoot(wr.Root)
	}
	if base == "" {
		return layout{base: wr.Root}
	}
	sub, err := filepath.Rel(base, wr.Root)
	if err != nil || sub == "." || strings.HasPrefix(sub, "..") {
		return layout{base: wr.Root}
	}
	return layout{base: base, sub: filepath.ToSlash(sub)}
}

// projectMarkers name the files that make a directory a project root
// outside git.
var projectMarkers = []string{"go.mod", "go.work", "package.json", "pyproject.toml", "setup.py", "Cargo.toml", "pom.xml", "build.gradle"}

// projectRoot is the nearest directory at or above dir holding a project
// marker ("" when none within 8 levels): outside git, documents are named
// relative to it, so README.md files of two packages ingested one by one
// stay two documents.
func projectRoot(dir string) string {
	for i := 0; i < 8; i++ {
		for _, m := range projectMarkers {
			if st, err := os.Stat(filepath.Join(dir, m)); err == nil && st.Mode().IsRegular() {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

func (l layout) path(rel string) string {
	if l.sub == "" {
		return rel
	}
	return path.Join(l.sub, rel)
}

// history reads when each document last changed in git (nil outside git
// or with NoGit).
func (a Adapter) history(ctx context.Context, req adapter.Request, wr *walk.Result, lay layout, st *adapter.Stats) *gitmeta.History {
	if wr.RepoRoot == "" || req.NoGit || lay.base != wr.RepoRoot {
		return nil
	}
	h, err := gitmeta.Read(ctx, wr.RepoRoot, gitmeta.Options{MaxCommits: req.MaxCommits, Subdir: lay.sub})
	if err != nil {
		st.Warnings = append(st.Warnings, "git history not read (document times are file times): "+err.Error())
		return nil
	}
	st.CommitsRead = h.CommitsRead
	return h
}

// CheckNamespace refuses namespaces that would break external IDs.
func CheckNamespace(ns string) error {
	if len(ns) > 64 || strings.Contains(ns, "::") || strings.ContainsAny(ns, " \t\n/\\#") {
		return fmt.Errorf("namespace %q is not usable: use letters, digits, '.', '_' or '-' (at most 64), e.g. \"wiki\"", ns)
	}
	return nil
}
