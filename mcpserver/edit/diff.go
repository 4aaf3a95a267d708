package edit

import (
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/utils/diff"
)

// op is a run of lines a diff keeps ('='), removes ('-') or adds ('+').
type op struct {
	kind  byte
	lines []string // each with its newline, when it had one
}

// lineOps diffs a and b by lines (Myers, through go-git). A diff that
// takes longer than a few seconds (huge, unrelated files) degrades to a
// replacement of the rest.
func lineOps(a, b string) []op {
	var out []op
	for _, d := range diff.DoWithTimeout(a, b, 5*time.Second) {
		k := byte('=')
		switch d.Type {
		case -1:
			k = '-'
		case 1:
			k = '+'
		}
		out = append(out, op{kind: k, lines: splitLines(d.Text)})
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Added returns the lines b adds to a (1-based line numbers in b) and
// how many lines it removes.
func Added(a, b []byte) (added []Line, removed int) {
	n := 0
	for _, o := range lineOps(string(a), string(b)) {
		switch o.kind {
		case '=':
			n += len(o.lines)
		case '+':
			for _, l := range o.lines {
				n++
				added = append(added, Line{N: n, Text: strings.TrimRight(l, "\r\n")})
			}
		case '-':
			removed += len(o.lines)
		}
	}
	return added, removed
}

// Line is one numbered line.
type Line struct {
	N    int
	Text string
}

// Unified renders the change from a to b as a unified diff with ctx lines
// of context, at most maxBytes long (truncated then says so). It also
// counts the lines added and removed.
func Unified(name string, a, b []byte, ctx, maxBytes int) (text string, added, removed int, truncated bool) {
	ops := lineOps(string(a), string(b))
	type line struct {
		kind byte
		text string
		ai   int // 1-based line in a (for '=' and '-')
		bi   int // in b (for '=' and '+')
	}
	var ls []line
	ai, bi := 1, 1
	for _, o := range ops {
		for _, l := range o.lines {
			switch o.kind {
			case '=':
				ls = append(ls, line{'=', l, ai, bi})
				ai++
				bi++
			case '-':
				ls = append(ls, line{'-', l, ai, bi})
				ai++
				removed++
			case '+':
				ls = append(ls, line{'+', l, ai, bi})
				bi++
				added++
			}
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", name, name)
	for i := 0; i < len(ls); {
		if ls[i].kind == '=' {
			i++
			continue
		}
		// A hunk: from ctx lines before this change to ctx lines after
		// the last change within 2*ctx of the previous one.
		start := max(0, i-ctx)
		end := i
		for j := i; j < len(ls); j++ {
			if ls[j].kind != '=' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		end = min(len(ls)-1, end+ctx)
		as, bs, an, bn := ls[start].ai, ls[start].bi, 0, 0
		var hunk strings.Builder
		for _, l := range ls[start : end+1] {
			p := " "
			switch l.kind {
			case '=':
				an++
				bn++
			case '-':
				p = "-"
				an++
			case '+':
				p = "+"
				bn++
			}
			hunk.WriteString(p + l.text)
			if !strings.HasSuffix(l.text, "\n") {
				hunk.WriteString("\n\\ No newline at end of file\n")
			}
		}
		if an == 0 {
			as--
		}
		if bn == 0 {
			bs--
		}
		h := fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", as, an, bs, bn) + hunk.String()
		if sb.Len()+len(h) > maxBytes {
			truncated = true
			break
		}
		sb.WriteString(h)
		i = end + 1
	}
	return sb.String(), added, removed, truncated
}
