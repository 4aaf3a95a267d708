package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// Rust 1.73+: "thread 'main' panicked at src/main.rs:10:5:" and the message on the next lines.
	reRustPanic = regexp.MustCompile(`^thread '([^']*)' panicked at (.+?):(\d+):(\d+):\s*$`)
	// Before 1.73: "thread 'main' panicked at 'index out of bounds', src/main.rs:10:5"
	reRustPanicOld = regexp.MustCompile(`^thread '([^']*)' panicked at ['"](.*)['"], (.+?):(\d+)(?::(\d+))?\s*$`)
	// "  12: myapp::parse::line" or "  12:     0x55d4c4a1 - myapp::parse::line::h1a2b3c4d5e6f7a8b"
	reRustFrame = regexp.MustCompile(`^\s*(\d+):\s+(?:0x[0-9a-fA-F]+ - )?(.+?)\s*$`)
	// "             at ./src/lib.rs:10:5"
	reRustAt = regexp.MustCompile(`^\s+at (.+?):(\d+)(?::(\d+))?\s*$`)
	// the symbol hash rustc appends: "::h1a2b3c4d5e6f7a8b"
	reRustHash = regexp.MustCompile(`::h[0-9a-f]{16}$`)
	// anyhow and main returning Err: "Error: could not read config"
	reRustError = regexp.MustCompile(`^Error: (.*)$`)
)

// parseRust reads a panic (both message formats), an "Error:" report, and
// the RUST_BACKTRACE frames under "stack backtrace:".
func parseRust(lines []string) Trace {
	var t Trace
	var loc *Frame // the panic location
	inBT, inMsg := false, false
	var msg []string
	lastAt := false
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		if inMsg {
			if trim == "" || strings.HasPrefix(trim, "note: ") || strings.EqualFold(trim, "stack backtrace:") {
				inMsg = false
				t.Chain[0].Message = message(strings.Join(msg, "\n"))
			} else {
				msg = append(msg, trim)
				continue
			}
		}
		panicLine := strings.HasPrefix(line, "thread '")
		if m := matchIf(reRustPanic, line, panicLine); m != nil {
			t.Chain = append(t.Chain[:0], Error{Type: "panic"})
			loc = rustLoc(m[2], m[3], m[4], line, i)
			inMsg, msg = true, nil
			continue
		}
		if m := matchIf(reRustPanicOld, line, panicLine); m != nil {
			t.Chain = append(t.Chain[:0], Error{Type: "panic", Message: message(m[2])})
			loc = rustLoc(m[3], m[4], m[5], line, i)
			continue
		}
		if m := matchIf(reRustError, line, len(t.Chain) == 0 && strings.HasPrefix(line, "Error: ")); m != nil {
			t.Chain = append(t.Chain, Error{Type: "Error", Message: message(m[1])})
			continue
		}
		if strings.EqualFold(trim, "stack backtrace:") {
			inBT = true
			continue
		}
		if !inBT {
			continue
		}
		if m := matchIf(reRustAt, line, len(t.Frames) > 0 && strings.HasPrefix(trim, "at ")); m != nil {
			f := &t.Frames[len(t.Frames)-1]
			if f.File == "" {
				f.File, f.Line, f.Column = CleanPath(m[1]), atoi(m[2]), atoi(m[3])
				f.Raw = raw(f.Raw + " at " + strings.TrimSpace(m[1]) + ":" + m[2])
				f.External = f.External || IsExternalPath(f.File)
				f.TextLine = i
			}
			lastAt = true
			continue
		}
		if m := reRustFrame.FindStringSubmatch(line); m != nil {
			t.Frames = append(t.Frames, rustFrame(m[2], line, i))
			lastAt = false
			continue
		}
		// An inlined frame: an indented symbol without a number after an "at".
		if lastAt && trim != "" && line != trim && !strings.HasPrefix(trim, "note:") && !strings.Contains(trim, " ") {
			t.Frames = append(t.Frames, rustFrame(trim, line, i))
		}
		lastAt = false
	}
	if inMsg && len(t.Chain) > 0 {
		t.Chain[0].Message = message(strings.Join(msg, "\n"))
	}
	if loc != nil && !t.hasFrameAt(loc.File, loc.Line) {
		t.Frames = append([]Frame{*loc}, t.Frames...)
	}
	return t
}

func rustLoc(file, line, col, rawLine string, at int) *Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Column: atoi(col), Raw: raw(rawLine), TextLine: at}
	f.External = IsExternalPath(f.File)
	return &f
}

func (t Trace) hasFrameAt(file string, line int) bool {
	for _, f := range t.Frames {
		if f.Line == line && (f.File == file || strings.HasSuffix(f.File, "/"+file) || strings.HasSuffix(file, "/"+f.File)) {
			return true
		}
	}
	return false
}

// rustFrame reads a symbol: "myapp::parse::Parser::line::h0123…",
// "<myapp::Foo as core::fmt::Display>::fmt", "myapp::main::{{closure}}".
func rustFrame(sym, line string, at int) Frame {
	sym = reRustHash.ReplaceAllString(strings.TrimSpace(sym), "")
	f := Frame{Raw: raw(line), External: isExternalRust(sym), TextLine: at}
	if strings.HasPrefix(sym, "<") {
		if end := strings.LastIndex(sym, ">::"); end > 0 {
			self, _, _ := strings.Cut(sym[1:end], " as ")
			f.Function = sym[end+3:]
			f.Module, f.Class = splitRustPath(stripBrackets(self))
			return f
		}
	}
	segs := strings.Split(stripAngles(sym), "::")
	for len(segs) > 1 && (strings.HasPrefix(segs[len(segs)-1], "{{") || segs[len(segs)-1] == "") {
		segs = segs[:len(segs)-1]
	}
	f.Function = segs[len(segs)-1]
	segs = segs[:len(segs)-1]
	if n := len(segs); n > 0 && segs[n-1] != "" && segs[n-1][0] >= 'A' && segs[n-1][0] <= 'Z' {
		f.Class, segs = segs[n-1], segs[:n-1]
	}
	f.Module = strings.Join(segs, "::")
	return f
}

// splitRustPath splits "myapp::model::User" into "myapp::model" and "User".
func splitRustPath(p string) (module, name string) {
	if i := strings.LastIndex(p, "::"); i >= 0 {
		return p[:i], p[i+2:]
	}
	return "", p
}

// stripAngles removes generic arguments ("Vec<T>::push" → "Vec::push").
func stripAngles(s string) string { return stripNested(s, '<', '>') }
