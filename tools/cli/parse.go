package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// command is one subcommand. Tool commands take their tool's parameters
// as flags, read from the registry, so they never lag behind it.
type command struct {
	Name string
	// Tool is the registry tool it calls; "" for commands of the CLI itself.
	Tool string
	// Positional are the tool parameters the positional arguments fill, in
	// order; Optional of them, counted from the end, may be left out.
	Positional []string
	Optional   int
	Usage      string
	Summary    string
}

var commands = []command{
	{Name: "ingest", Tool: "ingest", Positional: []string{"path"}, Optional: 1, Usage: "ingest [PATH]", Summary: "build the graph of PATH (default: this repository), with a progress bar"},
	{Name: "seek", Tool: "seek", Positional: []string{"query"}, Usage: `seek "WHAT THE CODE DOES"`, Summary: "find code by purpose"},
	{Name: "impact", Tool: "impact", Positional: []string{"node_id"}, Usage: "impact FILE|NODE", Summary: "what depends on FILE and breaks if it changes"},
	{Name: "why", Tool: "why", Positional: []string{"source", "target"}, Usage: "why A B", Summary: "the paths that connect A to B"},
	{Name: "search", Tool: "search", Positional: []string{"query"}, Usage: "search TEXT", Summary: "text search over the ingested files (--mode regex|semantic)"},
	{Name: "call", Usage: "call TOOL [JSON] [--PARAM VALUE...]", Summary: "call any registered tool (its parameters as flags or a JSON object)"},
	{Name: "help", Usage: "help [COMMAND|TOOL]", Summary: "this help, or one command's or tool's parameters"},
	{Name: "doctor", Usage: "doctor", Summary: "check toolchain, grammars, runtime dir, lock holder, graph freshness"},
	{Name: "serve", Usage: "serve [m1nd-mcp FLAGS]", Summary: "the MCP server on stdio (m1nd-mcp), on this repository's runtime dir"},
	{Name: "version", Usage: "version", Summary: "print the version"},
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return command{}, false
}

// options are the flags every command takes, before or after its name.
type options struct {
	JSON       bool
	RuntimeDir string
	AllowRoots []string
	NoAttach   bool
	NoColor    bool
	Verbose    bool
	Wait       time.Duration
	Help       bool
}

// defaultWait bounds the wait for a runtime directory held by a process
// that does not answer yet (a server loading its graph, another m1nd).
const defaultWait = time.Minute

func bindOptions(fs *flag.FlagSet, o *options) {
	fs.BoolVar(&o.JSON, "json", o.JSON, "print the tool's JSON answer instead of a table")
	fs.StringVar(&o.RuntimeDir, "runtime-dir", o.RuntimeDir, "runtime directory (default: M1ND_RUNTIME_DIR, else .m1nd at the repository root)")
	fs.Func("allow-root", "let ingest read DIR (repeatable)", func(v string) error {
		o.AllowRoots = append(o.AllowRoots, v)
		return nil
	})
	fs.BoolVar(&o.NoAttach, "no-attach", o.NoAttach, "do not talk to a server holding the runtime directory (exit 3)")
	fs.BoolVar(&o.NoColor, "no-color", o.NoColor, "no colours (also NO_COLOR)")
	fs.BoolVar(&o.Verbose, "verbose", o.Verbose, "also print the runtime directory's routine log lines")
	fs.BoolVar(&o.Verbose, "v", o.Verbose, "short for --verbose")
	fs.DurationVar(&o.Wait, "wait", o.Wait, "how long to wait for a runtime directory held by a process that does not answer yet")
	fs.BoolVar(&o.Help, "help", o.Help, "help for the command")
	fs.BoolVar(&o.Help, "h", o.Help, "help for the command")
}

// invocation is a parsed command line.
type invocation struct {
	Cmd  command
	Tool *tools.Tool
	// Args are the tool's arguments (agent_id is added at call time).
	Args map[string]any
	Opts options
	// Rest holds what the command reads itself: serve's m1nd-mcp flags,
	// help's topic.
	Rest []string
}

// usageError is a bad command line: exit 2, with the message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// parse reads a command line against the registry reg.
func parse(args []string, reg *tools.Registry) (*invocation, error) {
	inv := &invocation{Opts: options{Wait: defaultWait}}
	top := newFlagSet("m1nd")
	bindOptions(top, &inv.Opts)
	if err := top.Parse(args); err != nil {
		return nil, flagError(err)
	}
	rest := top.Args()
	if len(rest) == 0 {
		inv.Cmd, _ = lookupCommand("help")
		return inv, nil
	}
	cmd, ok := lookupCommand(rest[0])
	if !ok {
		return nil, unknownCommand(rest[0], reg)
	}
	inv.Cmd, rest = cmd, rest[1:]
	switch {
	case cmd.Name == "serve":
		inv.Rest = rest // m1nd-mcp parses its own flags
		return inv, nil
	case cmd.Name == "call":
		return parseCall(inv, rest, reg)
	case cmd.Tool != "":
		t, ok := reg.Lookup(cmd.Tool)
		if !ok {
			return nil, unknownTool(cmd.Tool, reg)
		}
		return parseTool(inv, t, rest)
	}
	fs := newFlagSet(cmd.Name)
	bindOptions(fs, &inv.Opts)
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return nil, err
	}
	if cmd.Name == "help" && len(pos) > 1 || cmd.Name != "help" && len(pos) > 0 {
		return nil, usagef("%s takes no argument %q\nusage: m1nd %s", cmd.Name, pos[len(pos)-1], cmd.Usage)
	}
	inv.Rest = pos
	return inv, nil
}

// parseCall reads `call TOOL [JSON] [--param value...]`: the tool name
// comes first so that its parameters can be declared as flags.
func parseCall(inv *invocation, rest []string, reg *tools.Registry) (*invocation, error) {
	fs := newFlagSet("call")
	bindOptions(fs, &inv.Opts)
	if err := fs.Parse(rest); err != nil {
		return nil, flagError(err)
	}
	if fs.NArg() == 0 {
		if inv.Opts.Help {
			return inv, nil
		}
		return nil, usagef("call needs a tool name\nusage: m1nd %s (m1nd help lists the tools)", inv.Cmd.Usage)
	}
	t, ok := reg.Lookup(fs.Arg(0))
	if !ok {
		return nil, unknownTool(fs.Arg(0), reg)
	}
	return parseTool(inv, t, fs.Args()[1:])
}

// parseTool reads t's arguments: positionals as inv.Cmd says (for call, one
// optional JSON object), the tool's parameters as flags.
func parseTool(inv *invocation, t *tools.Tool, rest []string) (*invocation, error) {
	inv.Tool = t
	fs := newFlagSet(inv.Cmd.Name)
	bindOptions(fs, &inv.Opts)
	flagged := map[string]any{}
	bindParams(fs, t, flagged)
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return nil, err
	}
	if inv.Opts.Help {
		return inv, nil
	}
	args := map[string]any{}
	if inv.Cmd.Name == "call" {
		if args, err = callObject(t, pos); err != nil {
			return nil, err
		}
	} else if err := fillPositional(inv.Cmd, t, pos, flagged, args); err != nil {
		return nil, err
	}
	for k, v := range flagged {
		args[k] = v
	}
	inv.Args = args
	return inv, nil
}

// callObject reads call's optional JSON object of arguments.
func callObject(t *tools.Tool, pos []string) (map[string]any, error) {
	args := map[string]any{}
	switch {
	case len(pos) > 1:
		return nil, usagef("call %s takes one JSON object of arguments, got %d arguments (quote the JSON)", t.Name, len(pos))
	case len(pos) == 1:
		if err := json.Unmarshal([]byte(pos[0]), &args); err != nil || args == nil {
			return nil, usagef("call %s: %q is not a JSON object of arguments (e.g. '{\"query\": \"auth\"}'); or pass parameters as flags (--query auth)", t.Name, pos[0])
		}
	}
	return args, nil
}

// fillPositional assigns positional arguments to the command's parameters.
func fillPositional(cmd command, t *tools.Tool, pos []string, flagged, args map[string]any) error {
	if len(pos) > len(cmd.Positional) {
		return usagef("%s takes %d argument(s), got %d: %q\nusage: m1nd %s", cmd.Name, len(cmd.Positional), len(pos), pos, cmd.Usage)
	}
	for i, name := range cmd.Positional {
		_, byFlag := flagged[name]
		switch {
		case i < len(pos) && byFlag:
			return usagef("%s: %s given both as an argument and as --%s", cmd.Name, name, name)
		case i < len(pos):
			p, _ := t.Param(name)
			v, err := convert(p, pos[i])
			if err != nil {
				return usagef("%s: %v", cmd.Name, err)
			}
			args[name] = v
		case !byFlag && i < len(cmd.Positional)-cmd.Optional:
			return usagef("%s needs %s\nusage: m1nd %s", cmd.Name, strings.ToUpper(name), cmd.Usage)
		}
	}
	return nil
}

// paramAliases are short spellings people type; each applies only to tools
// that have the parameter.
var paramAliases = map[string]string{"top": "top_k", "hops": "max_hops"}

// bindParams declares t's parameters as flags (snake and kebab case, plus
// paramAliases) whose values are converted to the declared types into out.
// agent_id is the CLI's own ("cli") unless given.
func bindParams(fs *flag.FlagSet, t *tools.Tool, out map[string]any) {
	def := func(name string, p tools.Param) {
		if fs.Lookup(name) != nil {
			return // an option of the CLI wins; the JSON form still reaches it
		}
		set := func(s string) error {
			v, err := convert(p, s)
			if err != nil {
				return err
			}
			if p.Type == tools.StringArray {
				if prev, ok := out[p.Name].([]string); ok && !strings.HasPrefix(s, "[") {
					v = append(prev, v.([]string)...)
				}
			}
			out[p.Name] = v
			return nil
		}
		if p.Type == tools.Boolean {
			fs.BoolFunc(name, p.Description, set)
		} else {
			fs.Func(name, p.Description, set)
		}
	}
	for _, p := range t.AllParams() {
		def(p.Name, p)
		if kebab := strings.ReplaceAll(p.Name, "_", "-"); kebab != p.Name {
			def(kebab, p)
		}
	}
	for alias, name := range paramAliases {
		if p, ok := t.Param(name); ok {
			def(alias, p)
		}
	}
}

// convert reads a command-line string as a value of p's declared type.
func convert(p tools.Param, s string) (any, error) {
	switch p.Type {
	case tools.Integer:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s must be an integer, got %q", p.Name, s)
		}
		return n, nil
	case tools.Number:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%s must be a number, got %q", p.Name, s)
		}
		return f, nil
	case tools.Boolean:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%s must be true or false, got %q", p.Name, s)
		}
		return b, nil
	case tools.StringArray:
		if strings.HasPrefix(s, "[") {
			var l []string
			if err := json.Unmarshal([]byte(s), &l); err != nil {
				return nil, fmt.Errorf("%s: %q is not a JSON array of strings", p.Name, s)
			}
			return l, nil
		}
		return []string{s}, nil
	case tools.Object, tools.ObjectArray, tools.Any:
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%s takes JSON (%s), got %q", p.Name, p.Type, s)
		}
		return v, nil
	}
	return s, nil
}

// parseInterleaved parses flags anywhere among the positional arguments
// (the flag package stops at the first positional); after "--" every
// argument is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(err)
		}
		rest := fs.Args()
		// The flag package drops a "--" it stops at: what it consumed ends
		// with one.
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are ours to phrase; help is ours to print
	fs.Usage = func() {}
	return fs
}

func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return usagef("unknown flag -help")
	}
	return usagef("%v (m1nd help lists the flags)", err)
}

func unknownCommand(name string, reg *tools.Registry) error {
	if t, ok := reg.Lookup(name); ok {
		return usagef("unknown command %q; %s is a tool: m1nd call %s ... (m1nd help %s lists its parameters)", name, t.Name, t.Name, t.Name)
	}
	return usagef("unknown command %q (m1nd help lists the commands)", name)
}

func unknownTool(name string, reg *tools.Registry) error {
	msg := fmt.Sprintf("no tool named %q", name)
	if s := reg.Suggest(name); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
	}
	return usagef("%s (m1nd help lists the tools)", msg)
}
