package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// /app/lib/rack/parser.rb:131:in `parse_boundary': bad (Rack::Error)
	// 	from lib/rack/parser.rb:140:in 'Rack::Parser.parse'   (Ruby 3.4 quotes)
	// # ./spec/parser_spec.rb:5:in `block (2 levels) in <top (required)>'   (RSpec)
	reRubyFrame = regexp.MustCompile("^\\s*(?:from\\s+|#\\s+)?(\\S.*?):(\\d+):in [`'](.*?)'(?::\\s*(.*))?$")
	// "msg (Rack::Multipart::Error)" at the end of the first frame line.
	reRubyTail = regexp.MustCompile(`^(.*?)\s*\(((?:[A-Z]\w*::)*[A-Z]\w*)\)$`)
	// Rails' log line "NoMethodError (undefined method `x' for nil):" and
	// the "RuntimeError: boom" of a test report.
	reRubyHead = regexp.MustCompile(`^\s*((?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception|Invalid|Failure|Timeout|NotFound))(?: \((.*)\):?|:\s(.*))$`)
	// block (2 levels) in, rescue in, ensure in: the method they run in.
	reRubyBlock = regexp.MustCompile(`^(?:block(?: \(\d+ levels\))?|rescue|ensure) in `)
)

// parseRuby reads Ruby backtraces: an uncaught exception as the
// interpreter prints it (the first frame carries the message and the
// class, the others "from" lines), Ruby 3.4's quoting of qualified
// labels ('Foo::Bar#baz'), a Rails or Minitest backtrace (one location per
// line) and RSpec's "# ./path:line:in" lines. Ruby prints the innermost
// frame first, as the Trace wants.
func parseRuby(lines []string) Trace {
	var t Trace
	for i, line := range lines {
		if m := matchIf(reRubyFrame, line, strings.Contains(line, ":in ")); m != nil {
			f := rubyFrame(m[1], m[2], m[3], line)
			f.TextLine = i
			t.Frames = append(t.Frames, f)
			if len(t.Chain) == 0 && m[4] != "" {
				t.Chain = append(t.Chain, rubyError(m[4]))
			}
			continue
		}
		if len(t.Chain) == 0 {
			if m := matchIf(reRubyHead, line, strings.Contains(line, "Error") || strings.Contains(line, "Exception") ||
				strings.Contains(line, "Invalid") || strings.Contains(line, "Failure") || strings.Contains(line, "Timeout") || strings.Contains(line, "NotFound")); m != nil {
				t.Chain = append(t.Chain, Error{Type: m[1], Message: message(m[2] + m[3])})
			}
		}
	}
	if len(t.Frames) == 0 {
		t.Chain = nil // an error line alone is not a Ruby trace
	}
	return t
}

// rubyError splits the first frame's tail "message (Class)"; without a
// class Ruby raised a RuntimeError.
func rubyError(tail string) Error {
	if m := reRubyTail.FindStringSubmatch(strings.TrimSpace(tail)); m != nil {
		return Error{Type: m[2], Message: message(m[1])}
	}
	return Error{Type: "RuntimeError", Message: message(tail)}
}

// rubyFrame reads a frame's label: "parse", "Rack::Parser.parse" (a
// singleton method), "Rack::Lint::Wrapper#check_env" (an instance
// method), "block (2 levels) in call", "<class:Parser>",
// "<top (required)>" and "<main>" (code outside any method).
func rubyFrame(file, line, label, rawLine string) Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Raw: raw(rawLine)}
	label = reRubyBlock.ReplaceAllString(label, "")
	switch {
	case strings.HasPrefix(label, "<class:"), strings.HasPrefix(label, "<module:"):
		f.Class = strings.TrimSuffix(label[strings.IndexByte(label, ':')+1:], ">")
	case strings.HasPrefix(label, "<"):
		// <main>, <top (required)>: the file's top level.
	default:
		owner, method := "", label
		if i := strings.LastIndexAny(label, "#."); i >= 0 {
			owner, method = label[:i], label[i+1:]
		}
		f.Function = method
		if i := strings.LastIndex(owner, "::"); i >= 0 {
			f.Module, f.Class = owner[:i], owner[i+2:]
		} else {
			f.Class = owner
		}
	}
	f.External = IsExternalPath(f.File)
	return f
}
