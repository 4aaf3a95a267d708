package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// Sanitizers (ASan, MSan, TSan, UBSan's stacks, libFuzzer):
	//     #0 0x4f1a2b in parse_string /src/cjson/cJSON.c:850:13
	//     #4 0x7f00 in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2409b)
	reSanFrame = regexp.MustCompile(`^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+in\s+(.+?)\s+(\S+?):(\d+)(?::(\d+))?\s*$`)
	reSanLib   = regexp.MustCompile(`^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+(?:in\s+(.+?)\s+)?\(([^)]+)\)\s*$`)
	// gdb's backtrace:
	//   #0  parse_string (item=0x5, input_buffer=0x6) at cJSON.c:850
	//   #1  0x0000555555555abc in parse_value (item=...) at /src/cJSON.c:1396
	//   #3  0x00007ffff7a05b97 in __libc_start_main () from /lib/x86_64-linux-gnu/libc.so.6
	reGdbAt   = regexp.MustCompile(`^\s*#(\d+)\s+(?:0x[0-9a-fA-F]+\s+in\s+)?(.+?)\s+\(.*\)\s+at\s+(\S+?):(\d+)\s*$`)
	reGdbFrom = regexp.MustCompile(`^\s*#(\d+)\s+(?:0x[0-9a-fA-F]+\s+in\s+)?(.+?)\s+\(.*\)\s+from\s+(\S+)\s*$`)
	// lldb's bt:   * frame #0: 0x0000000100003f40 a.out`parse_string(item=...) at cJSON.c:850:13
	reLldb = regexp.MustCompile("^\\s*\\*?\\s*frame #(\\d+): 0x[0-9a-fA-F]+ [^`]*`(.+?)(?:\\(.*\\))?(?: \\+ \\d+)?(?: at (\\S+?):(\\d+)(?::(\\d+))?)?\\s*$")
	// Valgrind:   ==123==    at 0x4C2A: parse_string (cJSON.c:850)
	//             ==123==    by 0x4C2B: parse_value (in /usr/lib/libfoo.so)
	reVgFrame = regexp.MustCompile(`^==\d+==\s+(?:at|by) 0x[0-9a-fA-F]+: (.+?) \((?:in )?([^():]+)(?::(\d+))?\)\s*$`)
	// ==1234==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020
	reSanError = regexp.MustCompile(`^==\d+==\s*ERROR: (\w+Sanitizer): (\S+)(.*)$`)
	// cJSON.c:850:13: runtime error: signed integer overflow: ...
	reUBSan = regexp.MustCompile(`^(\S+?):(\d+):(\d+): runtime error: (.*)$`)
	// ==123== Invalid read of size 1
	reVgError = regexp.MustCompile(`^==\d+== ((?:Invalid|Conditional|Use of|Mismatched|Source and destination|Syscall param|Process terminating)[^=]*)$`)
)

// parseNative reads C and C++ stacks: sanitizer reports (AddressSanitizer
// and its kin, UBSan's "runtime error" line, libFuzzer's crashes), gdb's
// and lldb's backtraces and Valgrind's error stacks. Frames come innermost
// first, as all four print them. Frames in shared libraries name the
// library, not a source file, and are external.
func parseNative(lines []string) Trace {
	var t Trace
	for i, line := range lines {
		if f, ok := nativeFrame(line); ok {
			f.TextLine = i
			t.Frames = append(t.Frames, f)
			continue
		}
		if len(t.Frames) == 0 && len(t.Chain) == 0 {
			t.Chain = nativeError(line, i, &t)
		}
	}
	if len(t.Frames) == 0 {
		t.Chain = nil
	}
	return t
}

// nativeError reads the report's error line; UBSan's also gives the frame
// its location.
func nativeError(line string, i int, t *Trace) []Error {
	if m := matchIf(reSanError, line, strings.Contains(line, "Sanitizer: ")); m != nil {
		return []Error{{Type: m[1] + ": " + m[2], Message: message(m[3])}}
	}
	if m := matchIf(reUBSan, line, strings.Contains(line, ": runtime error: ")); m != nil {
		f := nativeLocated("", m[1], m[2], m[3], line)
		f.TextLine = i
		t.Frames = append(t.Frames, f)
		return []Error{{Type: "runtime error", Message: message(m[4])}}
	}
	if m := matchIf(reVgError, line, strings.HasPrefix(line, "==")); m != nil {
		return []Error{{Type: "valgrind", Message: message(m[1])}}
	}
	return nil
}

// nativeFrame reads one frame line of any of the four forms.
func nativeFrame(line string) (Frame, bool) {
	trim := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(trim, "#"):
		if m := reGdbAt.FindStringSubmatch(line); m != nil {
			return nativeLocated(m[2], m[3], m[4], "", line), true
		}
		if m := reSanFrame.FindStringSubmatch(line); m != nil {
			return nativeLocated(m[2], m[3], m[4], m[5], line), true
		}
		if m := reSanLib.FindStringSubmatch(line); m != nil {
			return nativeLibrary(m[2], m[3], line), true
		}
		if m := reGdbFrom.FindStringSubmatch(line); m != nil {
			return nativeLibrary(m[2], m[3], line), true
		}
	case strings.Contains(trim, "frame #"):
		if m := reLldb.FindStringSubmatch(line); m != nil {
			if m[3] == "" {
				return nativeLibrary(m[2], "", line), true
			}
			return nativeLocated(m[2], m[3], m[4], m[5], line), true
		}
	case strings.HasPrefix(trim, "=="):
		if m := reVgFrame.FindStringSubmatch(line); m != nil {
			if m[3] == "" {
				return nativeLibrary(m[1], m[2], line), true
			}
			return nativeLocated(m[1], m[2], m[3], "", line), true
		}
	}
	return Frame{}, false
}

// nativeLocated is a frame with its source location.
func nativeLocated(symbol, file, line, col, rawLine string) Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Column: atoi(col), Raw: raw(rawLine)}
	f.Module, f.Class, f.Function = splitNativeSymbol(symbol)
	f.External = IsExternalPath(f.File) || isSystemHeader(f.File)
	return f
}

// nativeLibrary is a frame inside a shared library or binary without
// debug information: no file to map, external.
func nativeLibrary(symbol, lib, rawLine string) Frame {
	f := Frame{Raw: raw(rawLine), External: true}
	_, f.Class, f.Function = splitNativeSymbol(symbol)
	if i := strings.LastIndex(lib, "+0x"); i > 0 {
		lib = lib[:i]
	}
	f.Module = lib
	return f
}

// splitNativeSymbol splits a C++ "ns::Foo::bar(int) const" (or a C
// "parse_string") into its namespace, class and function, dropping
// parameters and template arguments. Which of "a::b" is a namespace and
// which a class the symbol does not say: the segment before the function
// is taken for its class.
func splitNativeSymbol(s string) (module, class, fn string) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "("); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	parts := strings.Split(dropTemplateArgs(s), "::")
	fn = parts[len(parts)-1]
	if n := len(parts); n >= 2 {
		class, module = parts[n-2], strings.Join(parts[:n-2], "::")
	}
	return module, class, fn
}

func dropTemplateArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isSystemHeader says a path is the C library's or the compiler's.
func isSystemHeader(p string) bool {
	for _, pre := range []string{"/usr/include/", "/usr/lib/", "/usr/local/include/", "/lib/", "/lib64/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return strings.Contains(p, "/compiler-rt/") || strings.Contains(p, "/libfuzzer/") || strings.Contains(p, "/libstdc++") ||
		strings.Contains(p, "/glibc") || strings.Contains(p, "/llvm-project/")
}
