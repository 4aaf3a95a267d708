package resolve

import (
	"go/build/constraint"
	"path"
	"runtime"
	"slices"
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
	return goBuilds(path.Base(r.Path), parseConstraint(r.BuildConstraint), runtime.GOOS, runtime.GOARCH)
}

// parseConstraint parses a //go:build expression; nil when there is none
// or it cannot be read (then the file counts as built everywhere).
func parseConstraint(c string) constraint.Expr {
	if c == "" {
		return nil
	}
	expr, err := constraint.Parse("//go:build " + c)
	if err != nil {
		return nil
	}
	return expr
}

func goBuilds(name string, expr constraint.Expr, goos, goarch string) bool {
	if !goFileNameMatches(name, goos, goarch) {
		return false
	}
	return expr == nil || expr.Eval(func(tag string) bool { return goTagHolds(tag, goos, goarch) })
}

// ports are the platforms Go builds for (go tool dist list, go1.26).
var ports = [...][2]string{
	{"aix", "ppc64"}, {"android", "386"}, {"android", "amd64"}, {"android", "arm"}, {"android", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"}, {"dragonfly", "amd64"}, {"freebsd", "386"}, {"freebsd", "amd64"},
	{"freebsd", "arm"}, {"freebsd", "arm64"}, {"illumos", "amd64"}, {"ios", "amd64"}, {"ios", "arm64"},
	{"js", "wasm"}, {"linux", "386"}, {"linux", "amd64"}, {"linux", "arm"}, {"linux", "arm64"},
	{"linux", "loong64"}, {"linux", "mips"}, {"linux", "mips64"}, {"linux", "mips64le"}, {"linux", "mipsle"},
	{"linux", "ppc64"}, {"linux", "ppc64le"}, {"linux", "riscv64"}, {"linux", "s390x"}, {"netbsd", "386"},
	{"netbsd", "amd64"}, {"netbsd", "arm"}, {"netbsd", "arm64"}, {"openbsd", "386"}, {"openbsd", "amd64"},
	{"openbsd", "arm"}, {"openbsd", "arm64"}, {"openbsd", "ppc64"}, {"openbsd", "riscv64"}, {"plan9", "386"},
	{"plan9", "amd64"}, {"plan9", "arm"}, {"solaris", "amd64"}, {"wasip1", "wasm"}, {"windows", "386"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// everywhere is the port set of a file without constraints.
const everywhere = uint64(1)<<len(ports) - 1

// buildPorts is the set of ports (bit i: ports[i]) that build the file;
// every port for a file that is not Go or builds everywhere.
func buildPorts(r *extract.Result) uint64 {
	if r.Language != "go" {
		return everywhere
	}
	name, expr := path.Base(r.Path), parseConstraint(r.BuildConstraint)
	if expr == nil && !platformName(name) {
		return everywhere // most files: no constraint, no _GOOS/_GOARCH suffix
	}
	var set uint64
	for i, p := range ports {
		if goBuilds(name, expr, p[0], p[1]) {
			set |= 1 << i
		}
	}
	return set
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

// platformName reports whether a Go file name carries a _GOOS or _GOARCH
// suffix (goFileNameMatches then depends on the platform).
func platformName(name string) bool {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
	i := strings.LastIndexByte(name, '_')
	if i < 0 {
		return false
	}
	last := name[i+1:]
	return knownOS[last] || knownArch[last]
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

// taggedExpr is a Go file's build constraint when it names a custom tag,
// one a build sets with -tags; nil otherwise.
func taggedExpr(r *extract.Result) constraint.Expr {
	if r.Language != "go" {
		return nil
	}
	expr := parseConstraint(r.BuildConstraint)
	if len(customTags(expr, nil)) == 0 {
		return nil
	}
	return expr
}

// customTags appends to tags those of expr that name no platform,
// compiler or release (binary_log, integration), once each.
func customTags(expr constraint.Expr, tags []string) []string {
	switch x := expr.(type) {
	case *constraint.TagExpr:
		t := x.Tag
		if knownOS[t] || knownArch[t] || t == "unix" || t == "gc" || t == "gccgo" || t == "cgo" || strings.HasPrefix(t, "go1.") || slices.Contains(tags, t) {
			return tags
		}
		return append(tags, t)
	case *constraint.NotExpr:
		return customTags(x.X, tags)
	case *constraint.AndExpr:
		return customTags(x.Y, customTags(x.X, tags))
	case *constraint.OrExpr:
		return customTags(x.Y, customTags(x.X, tags))
	}
	return tags
}

// builtTogether reports whether one build, some port with one setting of
// the custom tags, builds both constraints (nil: no custom tag): a file
// built only with -tags binary_log is built with the binary_log
// declarations, never with the !binary_log ones. Every port is tried, not
// only the host's: logrus's terminal_check_notappengine.go (!appengine &&
// !tinygo) is built with terminal_check_bsd.go's isTerminal on darwin,
// though not on linux; which port a reference means is preferBuilt's
// next rule.
func builtTogether(a, b constraint.Expr) bool {
	tags := customTags(b, customTags(a, nil))
	if len(tags) > 8 {
		return true // too many to try: do not guess
	}
	for _, p := range portsHostFirst {
		for set := 0; set < 1<<len(tags); set++ {
			holds := func(tag string) bool {
				if i := slices.Index(tags, tag); i >= 0 {
					return set&(1<<i) != 0
				}
				return goTagHolds(tag, p[0], p[1])
			}
			if (a == nil || a.Eval(holds)) && (b == nil || b.Eval(holds)) {
				return true
			}
		}
	}
	return false
}

// portsHostFirst is ports with the host's first, where most pairs of
// files are built together, so builtTogether usually answers at once.
var portsHostFirst = func() [][2]string {
	out := [][2]string{{runtime.GOOS, runtime.GOARCH}}
	for _, p := range ports {
		if p != out[0] {
			out = append(out, p)
		}
	}
	return out
}()

// builtWith reports whether the build that holds file from holds f too:
// by their custom tags when from names one; else by platform, the host's
// declarations first for a file the host builds (the default build:
// no custom tag set).
func builtWith(from, f fileInfo) bool {
	if from.tagged != nil {
		return builtTogether(from.tagged, f.tagged)
	}
	return from.ports&f.ports != 0 && (from.offBuild || !f.offBuild)
}
