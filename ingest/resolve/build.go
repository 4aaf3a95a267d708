package resolve

import (
	"go/build/constraint"
	"path"
	"runtime"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// builtHere reports whether the platform this process runs on builds the
// file: its //go:build expression and its _GOOS/_GOARCH name suffixes, as
// go/build decides with the default tags (cgo on, no custom tags). Only Go
// files carry constraints; every other file is built.
func builtHere(r *extract.Result) bool {
	if r.Language != "go" {
		return true
	}
	if !goFileNameMatches(path.Base(r.Path), runtime.GOOS, runtime.GOARCH) {
		return false
	}
	if r.BuildConstraint == "" {
		return true
	}
	expr, err := constraint.Parse("//go:build " + r.BuildConstraint)
	if err != nil {
		return true // unreadable: let the file count
	}
	return expr.Eval(func(tag string) bool { return goTagHolds(tag, runtime.GOOS, runtime.GOARCH) })
}

// goTagHolds is go/build's matchTag for the default context.
func goTagHolds(tag, goos, goarch string) bool {
	switch {
	case tag == goos || tag == goarch || tag == "gc" || tag == "cgo":
		return true
	case tag == "unix":
		return unixOS[goos]
	case goos == "android" && tag == "linux", goos == "illumos" && tag == "solaris", goos == "ios" && tag == "darwin":
		return true
	case strings.HasPrefix(tag, "go1."):
		return true // every released version tag up to the running toolchain's
	}
	return false
}

// goFileNameMatches applies go/build's file name rule: name_GOOS.go,
// name_GOARCH.go and name_GOOS_GOARCH.go build only there (_test is
// stripped first).
func goFileNameMatches(name, goos, goarch string) bool {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
	parts := strings.Split(name, "_")
	if len(parts) < 2 {
		return true
	}
	last := parts[len(parts)-1]
	if len(parts) >= 3 && knownOS[parts[len(parts)-2]] && knownArch[last] {
		return goTagHolds(parts[len(parts)-2], goos, goarch) && last == goarch
	}
	switch {
	case knownOS[last]:
		return goTagHolds(last, goos, goarch)
	case knownArch[last]:
		return last == goarch
	}
	return true
}

var unixOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "linux": true, "netbsd": true, "openbsd": true, "solaris": true}

var knownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true, "openbsd": true, "plan9": true,
	"solaris": true, "wasip1": true, "windows": true, "zos": true}

var knownArch = map[string]bool{"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
	"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true, "mips64le": true, "mips64p32": true,
	"mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true, "riscv": true, "riscv64": true, "s390": true,
	"s390x": true, "sparc": true, "sparc64": true, "wasm": true}
