package extract

import (
	"bytes"
	"regexp"
	"sort"
)

// reparse returns the tree of src as repair rewrites it when that parses
// with fewer errors, else t. A repair keeps every byte offset (it only
// turns line breaks into spaces), so the text the extractors read is src
// itself and each node's rows are counted again in src.
func reparse(g *grammar, t *tree, src []byte, repair func([]byte) ([]byte, bool)) *tree {
	fixed, ok := repair(src)
	if !ok {
		return t
	}
	u, err := g.parse(fixed)
	if err != nil {
		return t
	}
	if u.errors >= t.errors {
		u.release()
		return t
	}
	t.unkeep()
	t.release()
	u.src = src
	restoreRows(u.n, src)
	return u
}

// restoreRows sets each node's rows from its byte offsets in src.
func restoreRows(n []fnode, src []byte) {
	var breaks []uint32
	for i, c := range src {
		if c == '\n' {
			breaks = append(breaks, uint32(i))
		}
	}
	row := func(off uint32) uint32 {
		return uint32(sort.Search(len(breaks), func(k int) bool { return breaks[k] >= off }))
	}
	for i := range n {
		n[i].row, n[i].endRow = row(n[i].start), row(n[i].end)
	}
}

// kotlinCtorBreak finds a class header whose primary constructor starts
// the next line, as ktfmt writes a long one:
//
//	public class Builder
//	internal constructor(internal val name: String) : Taggable.Builder<Builder> {
//
// tree-sitter-kotlin v1.1.0 ends a nested class's declaration at that
// line break, so the class, its members and everything after it in the
// file came out as ERROR (kotlinpoet's TypeSpec, FileSpec, PropertySpec).
var kotlinCtorBreak = regexp.MustCompile(`(?m)\b(?:class|object)\s+` + "`?" + `\w+` + "`?" + `(?:<[^\n{}()]*>)?[ \t]*(\r?\n)[ \t]*(?:(?:private|internal|protected|public)[ \t]+)?(?:@[\w.]+(?:\([^\n)]*\))?[ \t]+)*constructor\s*\(`)

// kotlinJoinCtorLines writes those line breaks as spaces.
func kotlinJoinCtorLines(src []byte) ([]byte, bool) {
	if !bytes.Contains(src, []byte("constructor")) {
		return nil, false
	}
	ms := kotlinCtorBreak.FindAllSubmatchIndex(src, -1)
	if len(ms) == 0 {
		return nil, false
	}
	out := bytes.Clone(src)
	for _, m := range ms {
		for k := m[2]; k < m[3]; k++ {
			out[k] = ' '
		}
	}
	return out, true
}

// rsSpaceRawBorrows blanks the & of `&raw x` where x is not const or
// mut (a borrow of a variable named raw: bat's `match &raw {`).
// tree-sitter-rust v0.24 reads `&raw` as the start of a raw borrow
// (`&raw const p`) and lost the rest of the impl, so later functions
// landed in the wrong owner. The borrow itself names no definition.
func rsSpaceRawBorrows(src []byte) ([]byte, bool) {
	var out []byte
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("&raw "))
		if k < 0 {
			break
		}
		at := i + k
		i = at + 5
		rest := bytes.TrimLeft(src[i:], " \t\r\n")
		if bytes.HasPrefix(rest, []byte("const")) || bytes.HasPrefix(rest, []byte("mut")) {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		out[at] = ' '
	}
	return out, out != nil
}

// tsVarianceMark finds a type parameter's variance annotation — `in`,
// `out` or `in out` after `<` or `,` (comments between allowed), followed
// by the parameter's name and extends, =, `,` or `>`:
//
//	export interface $ZodObject<
//	  /** @ts-ignore Cast variance */
//	  out Shape extends Readonly<$ZodShape> = Readonly<$ZodShape>,
//
// tree-sitter-typescript v0.23 has no variance annotations (TypeScript
// 4.7), so zod's schemas parsed the parameter names as ERROR. The
// annotation declares nothing the graph holds.
var tsVarianceMark = regexp.MustCompile(`[<,](?:\s|/\*(?:[^*]|\*+[^*/])*\*+/|//[^\n]*)*\b(in\s+out|in|out)\s+[A-Za-z_$][\w$]*\s*(?:extends\b|[=,>])`)

// tsTypeStarExport finds `export type * from` (TypeScript 5.0), which
// tree-sitter-typescript v0.23 cannot read: trpc's index re-exported its
// types that way. Without `type` it is the re-export the graph records.
var tsTypeStarExport = regexp.MustCompile(`\bexport\s+(type)\s+\*`)

// tsBlankVariance writes variance annotations and the `type` of a
// type-only star export as spaces.
func tsBlankVariance(src []byte) ([]byte, bool) {
	var ms [][]int
	if bytes.Contains(src, []byte("out ")) || bytes.Contains(src, []byte("in ")) {
		ms = tsVarianceMark.FindAllSubmatchIndex(src, -1)
	}
	if bytes.Contains(src, []byte("type")) {
		ms = append(ms, tsTypeStarExport.FindAllSubmatchIndex(src, -1)...)
	}
	if len(ms) == 0 {
		return nil, false
	}
	out := bytes.Clone(src)
	for _, m := range ms {
		for k := m[2]; k < m[3]; k++ {
			if c := out[k]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				out[k] = ' '
			}
		}
	}
	return out, true
}

// goNewOfValue returns a repair that blanks the builtin `new` of a
// `new(expr)` call (Go 1.26: a pointer to a value, `new(int64(300))`) on
// the rows where t has a syntax error. tree-sitter-go v0.23 reads new's
// argument as a type only, so a value is an ERROR; without `new` it is a
// parenthesised expression, and the calls inside it are read.
func goNewOfValue(t *tree) func([]byte) ([]byte, bool) {
	return func(src []byte) ([]byte, bool) {
		rows := map[uint32]bool{}
		for _, n := range t.n {
			if n.kind == 0xFFFF {
				for r := n.row; r <= n.endRow; r++ {
					rows[r] = true
				}
			}
		}
		var out []byte
		row := uint32(0)
		for i := 0; i+4 <= len(src); i++ {
			if src[i] == '\n' {
				row++
				continue
			}
			if !rows[row] || string(src[i:i+4]) != "new(" || (i > 0 && (isIdentByte(src[i-1]) || src[i-1] == '.')) {
				continue
			}
			if out == nil {
				out = bytes.Clone(src)
			}
			copy(out[i:], "   ")
		}
		return out, out != nil
	}
}
