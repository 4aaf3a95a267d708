package federation

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/contract"
)

// The api_contract edges: a request one repository makes reaches the
// route another declares (calls_api, to the handler); a gRPC client
// calls the service a .proto declares (calls_api, to the .proto file and
// to the servers that register it); a server implements it (implements).
const (
	apiContract  = "api_contract"
	relCallsAPI  = "calls_api"
	relImplement = "implements"
)

// site is a place in one file of one repository.
type site struct {
	ns, file string
	line     int
}

type routeSite struct {
	site
	contract.Route
}

type requestSite struct {
	site
	contract.Request
}

type serviceSite struct {
	site
	contract.Service
}

// contracts is what the scan of every repository found.
type contracts struct {
	routes   []routeSite
	requests []requestSite
	services []serviceSite
	grpc     []site                 // files that may name generated gRPC code
	local    map[string][]routeSite // "ns::file::path" → its routes as written
	mounts   []mountSite            // router modules mounted under a prefix
}

type mountSite struct {
	site
	contract.Mount
}

// add records one file's facts.
func (k *contracts) add(ns, file string, src []byte) {
	f := contract.Extract(file, src)
	for _, r := range f.Routes {
		k.routes = append(k.routes, routeSite{site{ns, file, r.Line}, r})
	}
	for _, q := range f.Requests {
		k.requests = append(k.requests, requestSite{site{ns, file, q.Line}, q})
	}
	for _, s := range f.Services {
		k.services = append(k.services, serviceSite{site{ns, file, s.Line}, s})
	}
	for _, r := range f.Local {
		if k.local == nil {
			k.local = map[string][]routeSite{}
		}
		k.local[fileID(ns, file)] = append(k.local[fileID(ns, file)], routeSite{site{ns, file, r.Line}, r})
	}
	for _, m := range f.Mounts {
		k.mounts = append(k.mounts, mountSite{site{ns, file, m.Line}, m})
	}
	if contract.MayReferServices(src) && !contract.Generated(src) && !strings.HasSuffix(file, ".proto") {
		k.grpc = append(k.grpc, site{ns: ns, file: file})
	}
}

// mount adds the routes of every mounted router module under its
// prefix: app.use("/api/users", require("./routes/users")) makes
// router.get("/:id") in routes/users.js answer /api/users/{};
// app.include_router(items.router, prefix="/v2") does the same for a
// Python module.
func (k *contracts) mount() {
	for _, m := range k.mounts {
		for _, cand := range k.moduleFiles(m) {
			routes, ok := k.local[fileID(m.ns, cand)]
			if !ok {
				continue
			}
			for _, r := range routes {
				if full, ok := contract.NormPath(m.Prefix + r.Path); ok {
					r.Path = full
					k.routes = append(k.routes, r)
				}
			}
			break
		}
	}
}

// moduleFiles are the files a mount's module may be, most likely first.
func (k *contracts) moduleFiles(m mountSite) []string {
	if !strings.HasSuffix(m.file, ".py") {
		base := path.Clean(path.Join(path.Dir(m.file), m.Module))
		return []string{base, base + ".js", base + ".ts", base + ".mjs", base + ".cjs", base + "/index.js", base + "/index.ts"}
	}
	mod := strings.TrimLeft(m.Module, ".")
	rel := strings.ReplaceAll(mod, ".", "/")
	if dots := len(m.Module) - len(mod); dots > 0 {
		dir := path.Dir(m.file)
		for range dots - 1 {
			dir = path.Dir(dir)
		}
		rel = path.Join(dir, rel)
		return []string{rel + ".py", rel + "/__init__.py"}
	}
	// An absolute module: the file of the repository whose path ends so.
	var out []string
	for id := range k.local {
		f, ok := strings.CutPrefix(id, fileID(m.ns, ""))
		if ok && (f == rel+".py" || strings.HasSuffix(f, "/"+rel+".py") || f == rel+"/__init__.py" || strings.HasSuffix(f, "/"+rel+"/__init__.py")) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// routeEdges links every request to the most specific routes of the same
// method it reaches, when they are in another repository. A request its
// own repository answers as well stays inside it. A request no route
// reaches as written is tried again without the mount segments ("/api",
// "/v1") on both sides, at a lower weight: the client's base URL or the
// server's mount point in another file often holds them.
func (k *contracts) routeEdges(nodes *locator) []CrossEdge {
	asWritten := newRouteIndex(k.routes, func(p string) string { return p })
	bare := newRouteIndex(k.routes, unmounted)
	var out []CrossEdge
	for _, q := range k.requests {
		targets, weight := asWritten.reached(q.Request, q.Path), float32(0.85)
		if len(targets) == 0 {
			targets, weight = bare.reached(q.Request, unmounted(q.Path)), 0.7
		}
		if len(targets) == 0 || len(targets) > maxTargetsPerLink || servesItself(q.ns, targets) {
			continue
		}
		from := nodes.at(q.site)
		for _, r := range targets {
			out = append(out, CrossEdge{SourceRepo: q.ns, TargetRepo: r.ns, SourceNode: from, TargetNode: nodes.handler(r),
				EdgeType: apiContract, Relation: relCallsAPI, Weight: weight, CausalStrength: weight * 0.85, Evidence: evidence(q.Method, r)})
		}
	}
	return out
}

// routeIndex holds the routes by their number of segments (a request
// reaches only routes of its own length), each path as a key wrote it.
type routeIndex map[int][]keyedRoute

type keyedRoute struct {
	path string
	routeSite
}

func newRouteIndex(routes []routeSite, key func(string) string) routeIndex {
	ix := routeIndex{}
	for _, r := range routes {
		p := key(r.Path)
		n := strings.Count(p, "/")
		ix[n] = append(ix[n], keyedRoute{p, r})
	}
	return ix
}

// reached lists the most specific routes of q's method that path (q's,
// as the index's key wrote it) reaches.
func (ix routeIndex) reached(q contract.Request, path string) []routeSite {
	best, targets := 0, []routeSite(nil)
	for _, r := range ix[strings.Count(path, "/")] {
		if !contract.SameMethod(r.Method, q.Method) {
			continue
		}
		spec, ok := contract.Matches(r.path, path)
		if !ok || spec < best {
			continue
		}
		if spec > best {
			best, targets = spec, targets[:0]
		}
		targets = append(targets, r.routeSite)
	}
	return targets
}

// unmounted is p without its mount segments, or p when it has none.
func unmounted(p string) string {
	if u, ok := contract.Unmounted(p); ok {
		return u
	}
	return p
}

func servesItself(ns string, routes []routeSite) bool {
	for _, r := range routes {
		if r.ns == ns {
			return true
		}
	}
	return false
}

// evidence names the route a request reached: "GET /api/users/{}".
func evidence(method string, r routeSite) string {
	if r.Method != "" {
		method = r.Method
	}
	return strings.TrimSpace(method + " " + r.Path)
}

// serviceEdges reads the files that may name generated gRPC code for the
// services the .proto files declare, and links clients to the .proto
// and to the servers of other repositories, servers to the .proto.
func (k *contracts) serviceEdges(nodes *locator, read func(site) []byte) []CrossEdge {
	var svcs []contract.Service
	protoOf := map[string][]serviceSite{}
	for _, s := range k.services {
		svcs = append(svcs, s.Service)
		protoOf[s.FullName()] = append(protoOf[s.FullName()], s)
	}
	m := contract.NewServiceMatcher(svcs)
	if m == nil {
		return nil
	}
	refs := k.serviceRefs(m, read)
	servers := map[string][]serviceRef{}
	for _, r := range refs {
		if r.Role == contract.Server {
			servers[r.Service] = append(servers[r.Service], r)
		}
	}
	var out []CrossEdge
	for _, r := range refs {
		from := nodes.at(r.site)
		ev := "grpc " + r.Service
		rel := relCallsAPI
		if r.Role == contract.Server {
			rel = relImplement
		}
		for _, p := range protoOf[r.Service] {
			if p.ns != r.ns {
				out = append(out, CrossEdge{SourceRepo: r.ns, TargetRepo: p.ns, SourceNode: from, TargetNode: fileID(p.ns, p.file),
					EdgeType: apiContract, Relation: rel, Weight: 0.85, CausalStrength: 0.72, Evidence: ev})
			}
		}
		if r.Role != contract.Client {
			continue
		}
		for _, s := range servers[r.Service] {
			if s.ns != r.ns {
				out = append(out, CrossEdge{SourceRepo: r.ns, TargetRepo: s.ns, SourceNode: from, TargetNode: nodes.at(s.site),
					EdgeType: apiContract, Relation: relCallsAPI, Weight: 0.85, CausalStrength: 0.72, Evidence: ev})
			}
		}
	}
	return out
}

type serviceRef struct {
	site
	contract.ServiceRef
}

// serviceRefs reads the references to the services in the files that
// may name generated gRPC code.
func (k *contracts) serviceRefs(m *contract.ServiceMatcher, read func(site) []byte) []serviceRef {
	var refs []serviceRef
	for _, f := range k.grpc {
		for _, r := range m.Refs(f.file, read(f)) {
			refs = append(refs, serviceRef{site{f.ns, f.file, r.Line}, r})
		}
	}
	return refs
}

// locator finds the node of the graph a place in a file belongs to: the
// innermost function, method or class whose lines hold it, else the file.
type locator struct {
	g      *graph.Graph
	byFile map[string][]graph.NodeID // "ns::file::path" → its definitions
}

func newLocator(g *graph.Graph) *locator {
	l := &locator{g: g, byFile: map[string][]graph.NodeID{}}
	for n := range g.NumNodes() {
		id := nodeID(n)
		switch g.Type(id) {
		case graph.Function, graph.Class, graph.Struct:
		default:
			continue
		}
		ext := g.ExternalID(id)
		ns, rest, ok := strings.Cut(ext, "::file::")
		if !ok {
			continue
		}
		if file, _, ok := strings.Cut(rest, "::"); ok {
			key := fileID(ns, file)
			l.byFile[key] = append(l.byFile[key], id)
		}
	}
	return l
}

// at is the innermost definition holding s's line (ties: the smaller id).
func (l *locator) at(s site) string {
	best, span := "", uint32(1<<31)
	for _, n := range l.byFile[fileID(s.ns, s.file)] {
		p := l.g.Provenance(n)
		if p.LineStart == 0 || uint32(s.line) < p.LineStart || uint32(s.line) > p.LineEnd {
			continue
		}
		ext := l.g.ExternalID(n)
		if w := p.LineEnd - p.LineStart; w < span || (w == span && ext < best) {
			best, span = ext, w
		}
	}
	if best == "" {
		return fileID(s.ns, s.file)
	}
	return best
}

// handler is the node of the function a route names: in the route's
// file, else the one definition of that name in its directory or, when
// none is there, in its repository; else where the route is declared.
func (l *locator) handler(r routeSite) string {
	if r.Handler == "" {
		return l.at(r.site)
	}
	var inDir, inRepo []string
	dir := filepath.ToSlash(filepath.Dir(r.file))
	for _, n := range l.g.NodesByLabel(r.Handler) {
		ext := l.g.ExternalID(n)
		ns, rest, ok := strings.Cut(ext, "::file::")
		if !ok || ns != r.ns || l.g.Type(n) != graph.Function {
			continue
		}
		file, _, _ := strings.Cut(rest, "::")
		if file == r.file {
			return ext
		}
		if filepath.ToSlash(filepath.Dir(file)) == dir {
			inDir = append(inDir, ext)
		}
		inRepo = append(inRepo, ext)
	}
	switch {
	case len(inDir) == 1:
		return inDir[0]
	case len(inDir) == 0 && len(inRepo) == 1:
		return inRepo[0]
	}
	return l.at(r.site)
}
