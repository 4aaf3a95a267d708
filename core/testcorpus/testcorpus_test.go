package testcorpus

import (
	"strings"
	"testing"
)

// TestEntitiesMatchFiles: every declared entity starts on the line that
// defines it and ends on the last line of its body, so a change to a file
// that moves its code fails here, not in some test far away that trusted
// the numbers.
func TestEntitiesMatchFiles(t *testing.T) {
	t.Parallel()
	all := All()
	if len(all) != len(Backend)+len(Web)+len(Billing) {
		t.Fatalf("the sets share paths: %d files in all", len(all))
	}
	for path, ents := range Entities {
		src, ok := all[path]
		if !ok {
			t.Errorf("entities of %s, which is no file of the corpus", path)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
		for _, e := range ents {
			if e.Start < 1 || e.End < e.Start || e.End > len(lines) {
				t.Errorf("%s: lines %d-%d outside the file's %d", e.ID(path), e.Start, e.End, len(lines))
				continue
			}
			def := strings.TrimSpace(lines[e.Start-1])
			var prefixes []string
			switch e.Kind {
			case Class:
				prefixes = []string{"class " + e.Name + ":", "class " + e.Name + "("}
			case Function:
				prefixes = []string{"def " + e.Name + "(", "func " + e.Name + "("}
			default:
				t.Errorf("%s: unknown kind %q", e.ID(path), e.Kind)
			}
			if !hasAnyPrefix(def, prefixes) {
				t.Errorf("%s: line %d is %q, not its definition", e.ID(path), e.Start, def)
			}
			if end := blockEnd(lines, e.Start); end != e.End {
				t.Errorf("%s: ends on line %d, declared %d", e.ID(path), end, e.End)
			}
		}
	}
	for _, e := range Edges {
		for _, id := range []string{e.Source, e.Target} {
			if !declared(id) {
				t.Errorf("edge %v: no file or entity %s", e, id)
			}
		}
	}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	for i, c := range History {
		for _, p := range c {
			if _, ok := Backend[p]; !ok {
				t.Errorf("commit %d changes %s, which Backend does not have", i, p)
			}
			if r := Revision(p, i); !strings.HasPrefix(r, Backend[p]) || r == Backend[p] {
				t.Errorf("revision %d of %s: %q", i, p, r)
			}
		}
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// blockEnd is the last non-blank line of the block that line start opens:
// in Python the lines indented deeper than it, in Go up to the closing
// brace at its indentation.
func blockEnd(lines []string, start int) int {
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	open := lines[start-1]
	end := start
	for i := start; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasSuffix(strings.TrimSpace(open), "{") && indent(l) == indent(open) {
			if strings.TrimSpace(l) == "}" {
				return i + 1
			}
			break
		}
		if indent(l) <= indent(open) {
			break
		}
		end = i + 1
	}
	return end
}

func declared(id string) bool {
	rest, ok := strings.CutPrefix(id, "file::")
	if !ok {
		return false
	}
	path, _, _ := strings.Cut(rest, "::")
	if _, ok := All()[path]; !ok {
		return false
	}
	if rest == path {
		return true
	}
	for _, e := range Entities[path] {
		if e.ID(path) == id {
			return true
		}
	}
	return false
}
