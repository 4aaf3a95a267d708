package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// Which declaration a call means, where the declarations differ by build.
func TestCallsPerBuild(t *testing.T) {
	type call struct {
		from, to string
		want     bool
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		calls []call
	}{
		// A pair of files chosen by a custom build tag, written with the
		// legacy "// +build" line (rs/zerolog's encoder_json.go and
		// encoder_cbor.go): a plain file's call means the default build's
		// declaration, as go/types resolves it, and a file built only with
		// the tag means the tag's.
		{"legacy build tag pairs", map[string]string{
			"go.mod":         "module example.com/enc\n\ngo 1.22\n",
			"enc_json.go":    "// +build !binary_log\n\npackage enc\n\nfunc decode(b []byte) string { return string(b) }\n",
			"enc_cbor.go":    "// +build binary_log\n\npackage enc\n\nfunc decode(b []byte) string { return \"cbor\" }\n",
			"use.go":         "package enc\n\n// Use decodes.\nfunc Use() string { return decode(nil) }\n",
			"binary_test.go": "//go:build binary_log\n// +build binary_log\n\npackage enc\n\nfunc useBinary() string { return decode(nil) }\n",
		}, []call{
			{"file::use.go::Use", "file::enc_json.go::decode", true},
			{"file::use.go::Use", "file::enc_cbor.go::decode", false},
			{"file::binary_test.go::useBinary", "file::enc_cbor.go::decode", true},
			{"file::binary_test.go::useBinary", "file::enc_json.go::decode", false},
		}},
		// A package-level variable declared once per build (zerolog's enc,
		// a json.Encoder or a cbor.Encoder) types the receiver of
		// enc.AppendKey by the declaration built with the calling file; a
		// variable of the same name in another package (json's test) is
		// not the root package's.
		{"package var per build", map[string]string{
			"go.mod":            "module example.com/enc\n\ngo 1.22\n",
			"json/json.go":      "package json\n\ntype Encoder struct{}\n\nfunc (Encoder) AppendKey(b []byte) []byte { return b }\n",
			"json/json_test.go": "package json\n\nvar enc = Encoder{}\n",
			"cbor/cbor.go":      "package cbor\n\ntype Encoder struct{}\n\nfunc (Encoder) AppendKey(b []byte) []byte { return b }\n",
			"enc_json.go":       "// +build !binary_log\n\npackage enc\n\nimport \"example.com/enc/json\"\n\nvar enc = json.Encoder{}\n",
			"enc_cbor.go":       "// +build binary_log\n\npackage enc\n\nimport \"example.com/enc/cbor\"\n\nvar enc = cbor.Encoder{}\n",
			"use.go":            "package enc\n\n// Use appends.\nfunc Use() []byte { return enc.AppendKey(nil) }\n",
			"binary_test.go":    "//go:build binary_log\n\npackage enc\n\nfunc useBinary() []byte { return enc.AppendKey(nil) }\n",
		}, []call{
			{"file::use.go::Use", "file::json/json.go::Encoder::AppendKey", true},
			{"file::use.go::Use", "file::cbor/cbor.go::Encoder::AppendKey", false},
			{"file::binary_test.go::useBinary", "file::cbor/cbor.go::Encoder::AppendKey", true},
			{"file::binary_test.go::useBinary", "file::json/json.go::Encoder::AppendKey", false},
		}},
		// One function per platform, every file also tagged !tinygo, and a
		// portable caller tagged !appengine (sirupsen/logrus's terminal
		// checks): the caller is built with each platform's declaration
		// on its own port, so it calls all three, not only the host's.
		{"platform variants behind custom tags", map[string]string{
			"go.mod":                         "module example.com/term\n\ngo 1.22\n",
			"terminal_check_unix.go":         "//go:build (linux || aix || zos) && !tinygo\n\npackage term\n\nfunc isTerminal(fd int) bool { return fd == 1 }\n",
			"terminal_check_bsd.go":          "//go:build (darwin || freebsd || netbsd || openbsd) && !tinygo\n\npackage term\n\nfunc isTerminal(fd int) bool { return fd == 2 }\n",
			"terminal_check_solaris.go":      "//go:build solaris && !tinygo\n\npackage term\n\nfunc isTerminal(fd int) bool { return fd == 3 }\n",
			"terminal_check_notappengine.go": "//go:build !appengine && !js && !windows && !plan9 && !tinygo\n\npackage term\n\n// Check asks.\nfunc Check(fd int) bool { return isTerminal(fd) }\n",
			"terminal_check_tiny.go":         "//go:build tinygo\n\npackage term\n\nfunc isTerminal(fd int) bool { return false }\n",
		}, []call{
			{"file::terminal_check_notappengine.go::Check", "file::terminal_check_unix.go::isTerminal", true},
			{"file::terminal_check_notappengine.go::Check", "file::terminal_check_bsd.go::isTerminal", true},
			{"file::terminal_check_notappengine.go::Check", "file::terminal_check_solaris.go::isTerminal", true},
			{"file::terminal_check_notappengine.go::Check", "file::terminal_check_tiny.go::isTerminal", false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			d := graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
			for _, c := range tc.calls {
				if got := d.Has(c.from, "calls", c.to); got != c.want {
					t.Errorf("%s calls %s: %v, want %v (edges: %v)", c.from, c.to, got, c.want, d.EdgeStrings())
				}
			}
		})
	}
}

// pkg.F() types its result from pkg's functions named F, not from methods
// named F: zerolog.Ctx() is a *Logger though Event and Context have Ctx
// methods too (rs/zerolog's hlog handlers calling log.UpdateContext).
func TestPackageCallNotMethod(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/zl\n\ngo 1.22\n",
		"log.go":       "package zl\n\ntype Logger struct{}\n\nfunc (l *Logger) Update() {}\n",
		"ctx.go":       "package zl\n\nfunc Ctx() *Logger { return &Logger{} }\n",
		"event.go":     "package zl\n\ntype Event struct{}\n\nfunc (e *Event) Ctx() *Event { return e }\n",
		"hlog/hlog.go": "package hlog\n\nimport \"example.com/zl\"\n\n// H updates.\nfunc H() {\n\tlog := zl.Ctx()\n\tlog.Update()\n}\n",
	})
	d := graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
	if !d.Has("file::hlog/hlog.go::H", "calls", "file::log.go::Logger::Update") {
		t.Errorf("H does not call Logger::Update: %v", d.EdgeStrings())
	}
}
