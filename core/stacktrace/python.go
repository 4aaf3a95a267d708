package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// File "/srv/app/auth.py", line 42, in validate  (", in" is absent in
	// the SyntaxError form).
	rePyFile = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$`)
	// ValueError: bad input   requests.exceptions.HTTPError: 500   KeyboardInterrupt
	rePyExc = regexp.MustCompile(`^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::\s?(.*))?$`)
	// pytest: "tests/test_auth.py:12: in test_login", "backend/auth.py:17: PermissionError", "tests/test_x.py:5: "
	rePytestLoc = regexp.MustCompile(`^([^\s:"'][^:"']*\.py):(\d+):(?: (?:in ([\w<>.]+)|([A-Za-z_][\w.]*)))?\s*$`)
	// pytest's "E   ValueError: bad" lines.
	rePytestE = regexp.MustCompile(`^E\s+(.*)$`)
	// Exception-group decoration: "  | ", "  +-+---- 1 ----", "    +------".
	rePyGroup = regexp.MustCompile(`^\s*(?:\+[-+ 0-9.]*|\|)(?: |$)`)
)

// pyBlock is one printed traceback: its frames outermost first (as
// Python prints them) and the exception that ended it.
type pyBlock struct {
	frames []Frame
	err    Error
	pytest bool
}

// parsePython reads tracebacks (chained ones too), the SyntaxError form
// and pytest's failure reports.
func parsePython(lines []string) Trace {
	var blocks []*pyBlock
	var cur *pyBlock
	lastWasFile := false
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		for trim != "" && (trim[0] == '|' || trim[0] == '+') && rePyGroup.MatchString(line) {
			line = rePyGroup.ReplaceAllString(line, "")
			trim = strings.TrimSpace(line)
		}
		code := lastWasFile
		lastWasFile = false
		switch {
		case trim == "":
			continue
		case strings.Contains(line, "Traceback (most recent call last):"):
			cur = &pyBlock{}
			blocks = append(blocks, cur)
			continue
		case strings.HasPrefix(trim, "The above exception was the direct cause") || strings.HasPrefix(trim, "During handling of the above exception"):
			cur = nil
			continue
		case strings.HasPrefix(trim, "[Previous line repeated"):
			continue
		}
		if m := matchIf(rePyFile, line, strings.Contains(trim, "File \"")); m != nil {
			if cur == nil || cur.err.Type != "" {
				cur = &pyBlock{}
				blocks = append(blocks, cur)
			}
			f := pyFrame(m[1], m[2], m[3], line)
			f.TextLine = i
			cur.frames = append(cur.frames, f)
			lastWasFile = true
			continue
		}
		if cur != nil && len(cur.frames) > 0 && cur.err.Type == "" {
			if code && line != trim && !isCaretLine(trim) {
				cur.frames[len(cur.frames)-1].Code = raw(trim)
				continue
			}
			if line == trim && !cur.pytest {
				if m := rePyExc.FindStringSubmatch(trim); m != nil && looksLikePyException(m[1]) {
					cur.err = Error{Type: m[1], Message: message(m[2])}
					continue
				}
			}
		}
		if m := matchIf(rePytestLoc, line, strings.Contains(line, ".py:")); m != nil {
			if cur == nil || !cur.pytest || cur.err.Type != "" && m[4] == "" {
				cur = &pyBlock{pytest: true}
				blocks = append(blocks, cur)
			}
			cur.addPytest(m, line, i)
			continue
		}
		if m := matchIf(rePytestE, line, line[0] == 'E'); m != nil && cur != nil && cur.pytest && cur.err.Type == "" {
			if e := rePyExc.FindStringSubmatch(strings.TrimSpace(m[1])); e != nil && looksLikePyException(e[1]) {
				cur.err = Error{Type: e[1], Message: message(e[2])}
			}
		}
	}
	return pyTrace(blocks)
}

// addPytest adds one pytest location line: "in func" lines are frames in
// call order; the final "path:line: ErrorType" names the innermost one.
func (b *pyBlock) addPytest(m []string, line string, at int) {
	f := Frame{File: CleanPath(m[1]), Line: atoi(m[2]), Function: m[3], Raw: raw(line), TextLine: at}
	f.External = IsExternalPath(f.File)
	if m[4] != "" {
		if b.err.Type == "" {
			b.err.Type = m[4]
		}
		if n := len(b.frames); n > 0 && b.frames[n-1].File == f.File && b.frames[n-1].Line == f.Line {
			return
		}
	}
	b.frames = append(b.frames, f)
}

// pyTrace orders the blocks' frames: the first block printed is the
// deepest cause, and each block lists its innermost frame last.
func pyTrace(blocks []*pyBlock) Trace {
	var t Trace
	n := 0
	for _, b := range blocks {
		if len(b.frames) > 0 {
			n++
		}
	}
	k := 0
	for _, b := range blocks {
		if len(b.frames) == 0 {
			continue
		}
		ex := n - 1 - k
		k++
		for i := len(b.frames) - 1; i >= 0; i-- {
			f := b.frames[i]
			f.Exception = ex
			t.Frames = append(t.Frames, f)
		}
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		if len(blocks[i].frames) > 0 {
			e := blocks[i].err
			if e.Type == "" {
				e.Type = "Exception"
			}
			t.Chain = append(t.Chain, e)
		}
	}
	if len(t.Chain) > 0 && allUnknown(t.Chain) {
		t.Chain = nil
	}
	return t
}

func allUnknown(chain []Error) bool {
	for _, e := range chain {
		if e.Type != "Exception" || e.Message != "" {
			return false
		}
	}
	return true
}

func pyFrame(file, line, fn, rawLine string) Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Function: strings.TrimSpace(fn), Raw: raw(rawLine)}
	if strings.HasPrefix(file, "<") { // <frozen importlib._bootstrap>, <string>, <stdin>
		f.External = strings.HasPrefix(file, "<frozen")
		f.Module, f.File = strings.Trim(file, "<>"), ""
		return f
	}
	f.External = IsExternalPath(f.File)
	if i := strings.LastIndex(f.Function, "."); i > 0 { // 3.11+ qualified names: Class.method
		f.Class, f.Function = f.Function[:i], f.Function[i+1:]
	}
	return f
}

// looksLikePyException accepts a class name: its last segment starts
// with a capital letter ("ValueError", "django.db.utils.IntegrityError").
func looksLikePyException(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// isCaretLine is the "    ^^^^^" or "~~~^~~" marker under a quoted line.
func isCaretLine(s string) bool {
	return s != "" && strings.Trim(s, "^~ ") == ""
}
