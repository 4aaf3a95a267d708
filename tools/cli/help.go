package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools/system"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

const helpHead = `m1nd — the m1nd graph from a shell: the same tools, registry and runtime
directory as the MCP server (m1nd-mcp).

Usage:
  m1nd [FLAGS] COMMAND [ARGS] [FLAGS]
`

const helpTail = `Flags (any command, before or after it):
  --json              print the tool's JSON answer (errors too, on stdout)
  --runtime-dir DIR   the graph's directory (default: M1ND_RUNTIME_DIR, else .m1nd
                      at the top of the git repository around the working directory,
                      else in it — the directory ` + "`make run`" + ` serves)
  --allow-root DIR    let ingest read DIR (repeatable; m1nd ingest PATH allows PATH)
  --no-attach         never talk to a server holding the runtime directory
  --wait DURATION     wait this long for a holder that does not answer yet (1m)
  --no-color          no colours (also NO_COLOR; none when stdout is not a terminal)
  -v, --verbose       also print the runtime directory's routine log lines

Tool commands take their tool's parameters as flags, as the registry declares
them (--top_k 5 or --top-k 5, --scope backend/; --top and --hops are short for
--top_k and --max_hops): ` + "`m1nd help TOOL`" + ` lists them.

When a server holds the runtime directory, m1nd says so and talks to it over its
socket (an MCP client, so the answers are the server's and learning is shared).
A server started while m1nd holds the directory waits for m1nd to finish.

Exit codes:
  0  done
  1  the tool answered an error (printed with its hint and next step);
     doctor: something needs attention
  2  bad command line
  3  the runtime directory is held by a process m1nd cannot talk to
  4  m1nd could not run the call (runtime directory unusable, the server
     stopped answering)
`

// runHelp prints the overview, or the help of one command or tool (tool:
// the one a command line named, for `m1nd call TOOL --help`).
func runHelp(e *env, reg *tools.Registry, topic []string, tool *tools.Tool) int {
	w := e.Stdout
	if len(topic) == 0 || topic[0] == "help" {
		overview(w, e.out, reg)
		return ExitOK
	}
	if c, ok := lookupCommand(topic[0]); ok {
		fmt.Fprintf(w, "usage: m1nd %s\n\n%s.\n", c.Usage, capitalize(c.Summary))
		if c.Tool != "" {
			tool, _ = reg.Lookup(c.Tool)
		}
		if tool == nil {
			return ExitOK
		}
		fmt.Fprintln(w)
	} else if tool, ok = reg.Lookup(topic[0]); !ok {
		fmt.Fprintf(e.Stderr, "m1nd: %v\n", unknownTool(topic[0], reg))
		return ExitUsage
	}
	toolHelp(w, e.out, tool)
	return ExitOK
}

func overview(w io.Writer, st style, reg *tools.Registry) {
	fmt.Fprint(w, helpHead+"\n")
	fmt.Fprintln(w, st.bold("Commands:"))
	var rows [][]string
	for _, c := range commands {
		rows = append(rows, []string{"  " + c.Usage, c.Summary})
	}
	table(w, st, nil, rows)
	fmt.Fprintln(w)
	fmt.Fprint(w, helpTail)
	fmt.Fprintln(w)
	fmt.Fprintln(w, st.bold("Tools (m1nd call TOOL, m1nd help TOOL):"))
	rows = rows[:0]
	for _, t := range reg.All() {
		rows = append(rows, []string{"  " + t.Name, clip(system.FirstSentence(t.Description), 90)})
	}
	table(w, st, nil, rows)
}

// toolHelp documents one tool from its declaration in the registry.
func toolHelp(w io.Writer, st style, t *tools.Tool) {
	fmt.Fprintf(w, "%s (%s)\n%s\n\nFlags:\n", st.bold(t.Name), t.Class, wrap(t.Description, "", 78))
	for _, p := range t.AllParams() {
		var notes []string
		switch {
		case p.Name == tools.AgentIDParam.Name:
			notes = append(notes, "default \""+AgentID+"\"")
		case p.Required:
			notes = append(notes, "required")
		case p.Default != nil:
			b, _ := json.Marshal(p.Default)
			notes = append(notes, "default "+string(b))
		}
		if len(p.Enum) > 0 {
			notes = append(notes, "one of "+strings.Join(p.Enum, ", "))
		}
		head := "  --" + p.Name + " " + string(p.Type)
		if len(notes) > 0 {
			head += " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintln(w, st.bold(head))
		fmt.Fprintln(w, wrap(p.Description, "      ", 78))
	}
	for _, l := range [][2]string{{"when to use", t.WhenToUse}, {"avoid when", t.AvoidWhen}, {"next", strings.Join(t.Next, ", ")}} {
		if l[1] != "" {
			fmt.Fprintf(w, "\n%s", wrap(l[0]+": "+l[1], "", 78))
		}
	}
	fmt.Fprintf(w, "\n\nexample: %s\n", exampleCall(t))
}

// wrap breaks s into lines of at most width bytes, each starting with
// indent.
func wrap(s, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(s) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line)
	return b.String()
}

// exampleCall renders the tool's example as a command line.
func exampleCall(t *tools.Tool) string {
	keys := make([]string, 0, len(t.Example))
	for k := range t.Example {
		if k != "agent_id" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := []string{"m1nd call " + t.Name}
	for _, k := range keys {
		b, _ := json.Marshal(t.Example[k])
		v := string(b)
		if s, ok := t.Example[k].(string); ok {
			v = shellQuote(s)
		}
		parts = append(parts, "--"+k+" "+v)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
