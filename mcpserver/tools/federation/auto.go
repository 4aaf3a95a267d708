package federation

import (
	"cmp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type federateAutoParams struct {
	CurrentRepoName      string `json:"current_repo_name" jsonschema:"The current repository's name (default: its directory's)."`
	MaxRepos             int    `json:"max_repos" jsonschema:"Candidates listed." tool:"default=8,min=1,max=32"`
	DetectCrossRepoEdges bool   `json:"detect_cross_repo_edges" jsonschema:"With execute: link the repositories." tool:"default=true"`
	Execute              bool   `json:"execute" jsonschema:"Federate the suggested repositories now." help:"Call federate with the current repository and the suggested ones (those under allowed roots)." tool:"default=false"`
}

type currentRepo struct {
	Namespace string `json:"namespace"`
	RepoRoot  string `json:"repo_root"`
}

type discovered struct {
	Namespace       string   `json:"namespace" jsonschema:"The name it would be federated under."`
	RepoRoot        string   `json:"repo_root"`
	Marker          string   `json:"marker" jsonschema:"What makes it a repository: .git, go.mod, package.json or pyproject.toml."`
	Confidence      float64  `json:"confidence"`
	EvidenceTypes   []string `json:"evidence_types" jsonschema:"path_reference (a manifest points at it), package_match (the current repository imports its package)."`
	SourceFiles     []string `json:"source_files" jsonschema:"The current repository's files that show it."`
	SourceNodes     []string `json:"source_nodes" jsonschema:"The graph's nodes that show it (external packages it provides)."`
	SampledPaths    []string `json:"sampled_paths" jsonschema:"A few of its files."`
	SuggestedAction string   `json:"suggested_action"`
}

// FederateAutoOutput is federate_auto's answer.
type FederateAutoOutput struct {
	CurrentRepo     currentRepo     `json:"current_repo"`
	DiscoveredRepos []discovered    `json:"discovered_repos"`
	SuggestedRepos  []fedRepo       `json:"suggested_repos" jsonschema:"federate's repos argument: the current repository first."`
	SkippedPaths    []string        `json:"skipped_paths" jsonschema:"Referenced paths that are no repository, or outside the allowed roots."`
	Executed        bool            `json:"executed"`
	FederateResult  *FederateOutput `json:"federate_result,omitempty"`
	tools.Guidance
}

func registerFederateAuto(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "federate_auto",
		Title:       "Find the repositories to federate with",
		Description: "Sibling repositories the current one references or imports; execute federates them.",
		Details:     "Reads the current repository's manifests for local paths (go.mod replace directives, go.work use entries, package.json file:/link: dependencies and workspaces, pyproject path dependencies) and looks at its parent directory's repositories (a .git or a manifest) for packages the current repository imports (its external Go modules, npm and Python packages). Each candidate has its evidence and a confidence; suggested_repos is federate's argument. Conservative: a directory is suggested only with evidence. execute: true calls federate with them (paths outside the allowed roots are skipped and listed).",
		Class:       tools.Exclusive,
		WhenToUse:   "Before federate, when you do not know which neighbours the repository depends on.",
		AvoidWhen:   "You know the repositories: call federate.",
		Next:        []string{"federate", "impact"},
		Example:     map[string]any{"agent_id": "claude", "max_repos": 4},
	}, runFederateAuto)
}

func runFederateAuto(c *tools.Call, in federateAutoParams) (FederateAutoOutput, error) {
	b := c.Session.Current()
	cur, ok := currentRoot(b, in.CurrentRepoName)
	if !ok {
		return FederateAutoOutput{}, tools.Errorf("Ingest the repository you work in first (ingest with its path), then call federate_auto.", "no code repository in the graph to start from").WithNext("Call ingest with the repository's path.")
	}
	name := in.CurrentRepoName
	if name == "" {
		name = cmp.Or(cur.Namespace, cur.Name, safeName(filepath.Base(cur.Path)))
	}
	out := FederateAutoOutput{CurrentRepo: currentRepo{Namespace: name, RepoRoot: cur.Path}, DiscoveredRepos: []discovered{}, SuggestedRepos: []fedRepo{}, SkippedPaths: []string{}}
	cands := map[string]*discovered{}
	pathReferences(cur.Path, cands, &out.SkippedPaths)
	packageMatches(b.Graph, cur.Path, cands)
	for _, d := range cands {
		d.Confidence = confidence(d.EvidenceTypes)
		d.SampledPaths = sample(d.RepoRoot, 5)
		d.SuggestedAction = "federate"
		out.DiscoveredRepos = append(out.DiscoveredRepos, *d)
	}
	slices.SortFunc(out.DiscoveredRepos, func(a, b discovered) int {
		if a.Confidence != b.Confidence {
			return cmpDesc(a.Confidence, b.Confidence)
		}
		return strings.Compare(a.RepoRoot, b.RepoRoot)
	})
	out.DiscoveredRepos = out.DiscoveredRepos[:min(len(out.DiscoveredRepos), in.MaxRepos)]
	out.SuggestedRepos = append(out.SuggestedRepos, fedRepo{Name: name, Path: cur.Path, Adapter: "code"})
	taken := []string{name}
	for i := range out.DiscoveredRepos {
		d := &out.DiscoveredRepos[i]
		d.Namespace = uniqueName(safeName(filepath.Base(d.RepoRoot)), taken)
		taken = append(taken, d.Namespace)
		if err := c.Session.CheckIngestPath(d.RepoRoot); err != nil {
			d.SuggestedAction = "allow the directory (--allow-root " + d.RepoRoot + "), then federate"
			out.SkippedPaths = append(out.SkippedPaths, d.RepoRoot+": outside the allowed roots")
			continue
		}
		out.SuggestedRepos = append(out.SuggestedRepos, fedRepo{Name: d.Namespace, Path: d.RepoRoot, Adapter: "code"})
	}
	slices.Sort(out.SkippedPaths)
	out.SkippedPaths = slices.Compact(out.SkippedPaths)
	if in.Execute && len(out.SuggestedRepos) > 1 {
		res, err := runFederate(c, federateParams{Repos: out.SuggestedRepos, DetectCrossRepoEdges: in.DetectCrossRepoEdges})
		if err != nil {
			return FederateAutoOutput{}, err
		}
		out.Executed, out.FederateResult = true, &res
	}
	out.Guidance = autoGuidance(c, out)
	return out, nil
}

func autoGuidance(c *tools.Call, out FederateAutoOutput) tools.Guidance {
	switch {
	case out.Executed:
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "seek"), NextStepHint: "Federated: impact on a shared file now names its users in the other repositories."}
	case len(out.SuggestedRepos) > 1:
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: "federate", NextStepHint: "Call federate with suggested_repos as repos (or federate_auto with execute: true)."}
	default:
		return tools.Guidance{ProofState: "triaging", NextStepHint: "No neighbouring repository is referenced or imported; federate takes any repositories you name."}
	}
}

// currentRoot is the code root to start from: the one named, else the
// first code root.
func currentRoot(b *session.Bundle, name string) (session.Root, bool) {
	for _, r := range b.Roots {
		if r.Adapter == "code" && (name == "" || r.Namespace == name || r.Name == name || filepath.Base(r.Path) == name) {
			return r, true
		}
	}
	return session.Root{}, false
}

var (
	goReplacePath = regexp.MustCompile(`(?m)=>\s*(\.{1,2}/[^\s]+|/[^\s]+)`)
	goWorkUse     = regexp.MustCompile(`(?m)^\s*(?:use\s+)?(\.\./[^\s)]+)`)
	npmLocalDep   = regexp.MustCompile(`"(?:file|link|portal):([^"]+)"`)
	workspaceDir  = regexp.MustCompile(`"(\.\./[^"*]+)"`)
	pyPathDep     = regexp.MustCompile(`path\s*=\s*"([^"]+)"`)
	pnpmPackage   = regexp.MustCompile(`(?m)-\s*['"]?(\.\./[^'"*\s]+)`)
	npmName       = regexp.MustCompile(`"name"\s*:\s*"([^"]+)"`)
	pyName        = regexp.MustCompile(`(?m)^name\s*=\s*"([^"]+)"`)
)

// pathReferences reads the current repository's manifests for local
// paths outside it: each that is a repository is a candidate.
func pathReferences(root string, cands map[string]*discovered, skipped *[]string) {
	for _, m := range []struct {
		file string
		re   []*regexp.Regexp
	}{
		{"go.mod", []*regexp.Regexp{goReplacePath}},
		{"go.work", []*regexp.Regexp{goWorkUse}},
		{"package.json", []*regexp.Regexp{npmLocalDep, workspaceDir}},
		{"pnpm-workspace.yaml", []*regexp.Regexp{pnpmPackage}},
		{"pyproject.toml", []*regexp.Regexp{pyPathDep}},
	} {
		src, err := readBounded(filepath.Join(root, m.file))
		if err != nil {
			continue
		}
		for _, re := range m.re {
			for _, g := range re.FindAllStringSubmatch(string(src), -1) {
				dir := g[1]
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(root, dir)
				}
				dir = filepath.Clean(dir)
				if dir == root || strings.HasPrefix(dir, root+string(filepath.Separator)) {
					continue // inside the repository: already in it
				}
				top, marker := repoTop(dir)
				if top == "" {
					*skipped = append(*skipped, dir+": no repository there")
					continue
				}
				addEvidence(cands, top, marker, "path_reference", m.file, "")
			}
		}
	}
}

// packageMatches looks at the parent directory's repositories for the
// packages the current repository imports (its external package nodes).
func packageMatches(g *graph.Graph, root string, cands map[string]*discovered) {
	wanted := map[string]string{} // "go::example.com/lib" → node id
	for n := range g.NumNodes() {
		id := g.ExternalID(nodeID(n))
		if rest, ok := strings.CutPrefix(id, "package::"); ok && g.HasTag(nodeID(n), "external") {
			wanted[rest] = id
		}
	}
	entries, err := os.ReadDir(filepath.Dir(root))
	if err != nil || len(wanted) == 0 {
		return
	}
	for i, e := range entries {
		if i == maxSiblings {
			break
		}
		dir := filepath.Join(filepath.Dir(root), e.Name())
		if !e.IsDir() || dir == root || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		for _, p := range provided(dir) {
			if id, ok := wanted[p.key]; ok {
				addEvidence(cands, dir, p.marker, "package_match", p.marker, id)
			}
		}
	}
}

// maxSiblings bounds the directories of the parent federate_auto reads.
const maxSiblings = 500

type providedPkg struct{ key, marker string }

// provided is what a directory publishes, as external package keys
// ("go::<module>", "npm::<name>", "pypi::<name>").
func provided(dir string) []providedPkg {
	var out []providedPkg
	if mod := modulePath(filepath.Join(dir, "go.mod")); mod != "" {
		out = append(out, providedPkg{"go::" + mod, "go.mod"})
	}
	if src, err := readBounded(filepath.Join(dir, "package.json")); err == nil {
		if m := npmName.FindSubmatch(src); m != nil {
			out = append(out, providedPkg{"npm::" + string(m[1]), "package.json"})
		}
	}
	if src, err := readBounded(filepath.Join(dir, "pyproject.toml")); err == nil {
		if m := pyName.FindSubmatch(src); m != nil {
			out = append(out, providedPkg{"pypi::" + strings.ToLower(string(m[1])), "pyproject.toml"})
		}
	}
	return out
}

func addEvidence(cands map[string]*discovered, dir, marker, kind, file, node string) {
	d := cands[dir]
	if d == nil {
		d = &discovered{RepoRoot: dir, Marker: marker, EvidenceTypes: []string{}, SourceFiles: []string{}, SourceNodes: []string{}}
		cands[dir] = d
	}
	for _, x := range []struct {
		list *[]string
		v    string
	}{{&d.EvidenceTypes, kind}, {&d.SourceFiles, file}, {&d.SourceNodes, node}} {
		if x.v != "" && !slices.Contains(*x.list, x.v) {
			*x.list = append(*x.list, x.v)
			slices.Sort(*x.list)
		}
	}
}

// repoTop is the repository directory dir belongs to (dir itself or its
// nearest parent with a marker) and its marker; "" when none.
func repoTop(dir string) (string, string) {
	for d := dir; ; d = filepath.Dir(d) {
		for _, m := range []string{".git", "go.mod", "package.json", "pyproject.toml"} {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d, m
			}
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

func confidence(evidence []string) float64 {
	switch {
	case slices.Contains(evidence, "path_reference") && slices.Contains(evidence, "package_match"):
		return 0.95
	case slices.Contains(evidence, "path_reference"):
		return 0.9
	default:
		return 0.8
	}
}

// sample lists up to n files of dir (sorted, first level and one below).
func sample(dir string, n int) []string {
	out := []string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if len(out) == n {
			break
		}
		if !strings.HasPrefix(e.Name(), ".") && !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func uniqueName(base string, taken []string) string {
	name := base
	for i := 2; slices.Contains(taken, name); i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	return name
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func safeName(s string) string {
	if s = unsafeName.ReplaceAllString(s, "-"); s == "" || s == "-" || s == "." {
		return "repo"
	}
	return s
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
