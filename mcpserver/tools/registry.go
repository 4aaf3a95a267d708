package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// Class says how a tool touches shared state.
type Class uint8

const (
	// Read tools share the graph with other readers.
	Read Class = iota
	// Write tools change learned state (weights, sidecars) but not the
	// graph's structure; they run alongside readers.
	Write
	// Exclusive tools replace or restructure the graph and run alone.
	Exclusive
)

func (c Class) String() string {
	switch c {
	case Write:
		return "write"
	case Exclusive:
		return "exclusive"
	}
	return "read"
}

// Type is a parameter's JSON type.
type Type string

// Parameter types, as JSON Schema names them.
const (
	String      Type = "string"
	Integer     Type = "integer"
	Number      Type = "number"
	Boolean     Type = "boolean"
	StringArray Type = "string[]"
	ObjectArray Type = "object[]"
	Object      Type = "object"
	Any         Type = "json"
)

// Param declares one tool parameter.
type Param struct {
	Name string
	Type Type
	// Description is published in the input schema: short (a phrase or
	// a sentence). Help is the long form help and the docs show (the
	// `help` tag), when there is more to say.
	Description string
	Help        string
	Required    bool
	// Default is the value used when the parameter is absent (documented in
	// the schema; nil for none).
	Default any
	Enum    []string
	Min     *float64
	Max     *float64
	// MaxLen bounds a string (bytes) or each string of an array (0:
	// DefaultMaxStringLen); MaxItems bounds an array (0: DefaultMaxItems).
	// Both are checked before the handler runs, so no argument can make a
	// tool work for minutes (query handling is not linear everywhere).
	MaxLen   int
	MaxItems int
}

// Default argument bounds (see Param.MaxLen, Param.MaxItems). A query or a
// path of 8 KiB is far longer than any real one; a stack trace pasted into
// seek gets its own, larger bound.
const (
	DefaultMaxStringLen = 8 << 10
	DefaultMaxItems     = 1000
	// MaxAgentIDLen bounds agent_id, which the session keeps per agent.
	MaxAgentIDLen = 128
)

// Tool declares one tool.
type Tool struct {
	Name string
	// Title is the human-readable name clients show (MCP title).
	Title       string
	Description string
	// Params lists the tool's own parameters; agent_id is added to every
	// tool automatically.
	Params []Param
	// Input is the struct Call.Bind decodes the arguments into: one field
	// per parameter of Params, named and typed as declared (a test holds
	// them together). Params stay the declaration: they carry the bounds,
	// defaults and enums the input schema publishes and the dispatcher
	// checks.
	Input reflect.Type
	// Output is the type of the handler's answer (a struct, or a struct
	// describing the map the handler builds); the tool's outputSchema is
	// derived from it (see OutputSchema).
	Output reflect.Type
	Class  Class
	// Hints override the MCP annotations Class implies (nil: from Class).
	Hints     *Hints
	WhenToUse string
	AvoidWhen string
	// Next names the tools that usually follow this one.
	Next []string
	// Example holds valid arguments for a typical call (agent_id included).
	Example map[string]any
	// Aliases are legacy names (e.g. "lock.create") that resolve here.
	Aliases []string
	// Family is the tool family (toolset) the tool belongs to; stamped by
	// Registry.InFamily.
	Family string
	// Details is the long form of Description — how the tool works, what
	// its answer holds, its limits — shown by help and the generated docs.
	// Description, which tools/list carries to every agent, stays a few
	// sentences: what the tool answers and when to use it.
	Details string
	Run     func(c *Call) (any, error)

	// outJSON is Output's published schema as tools/list sends it, derived
	// once at Register. The schema trees are not kept: go-std's server held
	// 9 MB of them, heap its memory limit then took from every collection.
	outJSON json.RawMessage
}

// AgentIDParam is the parameter every tool requires. The server's
// instructions describe it once, so tools/list does not repeat a
// description in every tool's schema; help and the docs show Help.
var AgentIDParam = Param{
	Name: "agent_id", Type: String, Required: true, MaxLen: MaxAgentIDLen,
	Help: "Your agent's name (at most 128 bytes): the session keeps learning, perspectives and locks per agent.",
}

// AllParams returns agent_id followed by the tool's own parameters.
func (t *Tool) AllParams() []Param {
	return append([]Param{AgentIDParam}, t.Params...)
}

// Param returns the declaration of a parameter by name. It looks in
// place: AllParams copies the list, and every call's argument check asks
// for each argument.
func (t *Tool) Param(name string) (Param, bool) {
	if name == AgentIDParam.Name {
		return AgentIDParam, true
	}
	for _, p := range t.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Registry holds every tool once.
type Registry struct {
	tools   map[string]*Tool
	aliases map[string]string
	// family is stamped on the tools registered while it is set (see
	// InFamily).
	family string
	// warmups build derived indexes of a new graph (AddWarmup).
	warmups []warmup
}

type warmup struct {
	name  string
	build func(ctx context.Context, s *session.State, b *session.Bundle) error
}

// AddWarmup declares an index a family's tools derive from a graph that is
// worth building in the background after an ingest (BuildIndexesSoon), so
// the family's first call does not pay for it. build must stop early, and
// cache nothing, when ctx ends (session.DeriveCtx).
func (r *Registry) AddWarmup(name string, build func(ctx context.Context, s *session.State, b *session.Bundle) error) {
	r.warmups = append(r.warmups, warmup{name, build})
}

// InFamily registers what add registers as tools of the named family (its
// toolset, which --toolsets selects by).
func (r *Registry) InFamily(name string, add func(*Registry)) {
	r.family = name
	defer func() { r.family = "" }()
	add(r)
}

// Families are the family names of the registered tools, sorted.
func (r *Registry) Families() []string {
	seen := map[string]bool{}
	for _, t := range r.tools {
		if t.Family != "" {
			seen[t.Family] = true
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: map[string]*Tool{}, aliases: map[string]string{}}
}

// register adds a tool (Add is the way in); a name twice is a programming
// error.
func (r *Registry) register(t *Tool) {
	if _, dup := r.tools[t.Name]; dup {
		panic("tools: duplicate tool " + t.Name)
	}
	if t.Run == nil {
		panic("tools: tool " + t.Name + " has no handler")
	}
	if err := t.deriveOutputSchema(); err != nil {
		panic("tools: tool " + t.Name + ": " + err.Error())
	}
	if t.Family == "" {
		t.Family = r.family
	}
	r.tools[t.Name] = t
	for _, a := range t.Aliases {
		r.aliases[normalize(a)] = t.Name
	}
}

// pruneNext keeps in each tool's Next only the tools this registry serves:
// declarations may name the tools that usually follow even before they
// exist, and guidance must never point at a tool that is not there.
func (r *Registry) PruneNext() {
	for _, t := range r.tools {
		t.Next = slices.DeleteFunc(slices.Clone(t.Next), func(n string) bool {
			_, ok := r.Lookup(n)
			return !ok
		})
	}
}

// All returns the tools sorted by name.
func (r *Registry) All() []*Tool {
	out := make([]*Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// normalize maps the accepted spellings onto canonical names: transport
// prefixes "m1nd." / "m1nd_" / "m1nd:" / "mcp__m1nd__" are dropped, dotted
// legacy names become underscored ("lock.create" → "lock_create").
func normalize(name string) string {
	n := strings.TrimSpace(name)
	for _, p := range []string{"mcp__m1nd__", "m1nd.", "m1nd_", "m1nd:", "m1nd/"} {
		if len(n) > len(p) && strings.EqualFold(n[:len(p)], p) {
			n = n[len(p):]
			break
		}
	}
	n = strings.ReplaceAll(n, ".", "_")
	n = strings.ReplaceAll(n, "-", "_")
	return strings.ToLower(n)
}

// Lookup resolves any accepted spelling of a tool name.
func (r *Registry) Lookup(name string) (*Tool, bool) {
	n := normalize(name)
	if t, ok := r.tools[n]; ok {
		return t, true
	}
	if c, ok := r.aliases[n]; ok {
		return r.tools[c], true
	}
	return nil, false
}

// Canonical returns the canonical name for any accepted spelling, or "".
func (r *Registry) Canonical(name string) string {
	if t, ok := r.Lookup(name); ok {
		return t.Name
	}
	return ""
}

// Suggest returns up to three registered names closest to name.
func (r *Registry) Suggest(name string) []string {
	n := normalize(name)
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for t := range r.tools {
		d := EditDistance(n, t)
		if strings.Contains(t, n) || strings.Contains(n, t) {
			d = min(d, 1)
		}
		if d <= max(2, len(n)/2) {
			cs = append(cs, cand{t, d})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Doc is the tool's long description: Details, else Description.
func (t *Tool) Doc() string {
	if t.Details != "" {
		return t.Details
	}
	return t.Description
}

// Doc is the parameter's long description: Help, else Description.
func (p Param) Doc() string {
	if p.Help != "" {
		return p.Help
	}
	return p.Description
}
