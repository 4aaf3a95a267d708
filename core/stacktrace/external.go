package stacktrace

import "strings"

// externalDirs are path fragments that put a file in a library, a
// toolchain or a runtime rather than in the project: installed Python
// packages and the standard library, node_modules, vendored code, GOROOT
// and the Go module cache, the Rust toolchain and cargo's caches, the
// JDK and Maven's and Gradle's caches, installed gems and Ruby itself.
var externalDirs = []string{
	"/site-packages/", "/dist-packages/", "/.venv/", "/venv/", "/.tox/", "/lib/python2", "/lib/python3", "/lib64/python3",
	"/lib/pypy", "/python3.framework/", "/.pyenv/versions/", "/conda/lib/", "/anaconda3/lib/", "/miniconda3/lib/",
	"/node_modules/", "/bower_components/", "/.yarn/", "/.pnpm/",
	"/vendor/", "/third_party/", "/third-party/",
	"/usr/local/go/", "/usr/lib/go/", "/usr/lib/go-", "/usr/lib/golang/", "/usr/share/go/", "/go/pkg/mod/", "/pkg/mod/",
	"/opt/homebrew/cellar/go/", "/sdk/go1.", "/toolchain@", "/goroot/",
	"/rustc/", "/.cargo/registry/", "/.cargo/git/", "/.rustup/", "/library/std/src/", "/library/core/src/", "/library/alloc/src/",
	"/jdk/", "/jre/", "/.m2/repository/", "/.gradle/caches/",
	"/gems/", "/.rbenv/versions/", "/.rvm/rubies/", "/.rubies/", "/lib/ruby/",
}

// externalPrefixes are path starts that say the same for relative paths.
var externalPrefixes = []string{
	"site-packages/", "dist-packages/", "node_modules/", "vendor/", "third_party/",
	"node:", "<frozen ", "<frozen>", "<anonymous>", "[native code]", "<internal:",
	"library/std/", "library/core/", "library/alloc/", "rustc/", "/rustc/",
}

// IsExternalPath reports whether a (normalised) path belongs to a
// library, toolchain or runtime. Matching ignores case.
func IsExternalPath(p string) bool {
	if p == "" {
		return false
	}
	low := strings.ToLower(p)
	for _, pre := range externalPrefixes {
		if strings.HasPrefix(low, pre) {
			return true
		}
	}
	if !strings.HasPrefix(low, "/") {
		low = "/" + low
	}
	for _, d := range externalDirs {
		if strings.Contains(low, d) {
			return true
		}
	}
	return false
}

// externalJVM are the package prefixes of the JDK, the Kotlin and Scala
// runtimes and the build and test harnesses that run a program.
var externalJVM = []string{
	"java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.", "scala.", "groovy.", "org.codehaus.groovy.",
	"org.junit.", "junit.", "org.testng.", "org.gradle.", "worker.org.gradle.", "org.apache.maven.", "dalvik.", "android.",
	"com.android.internal.", "androidx.",
}

func isExternalJVM(qualified string) bool {
	for _, p := range externalJVM {
		if strings.HasPrefix(qualified, p) {
			return true
		}
	}
	return false
}

// externalRust are the crates of the Rust runtime.
var externalRust = []string{"std::", "core::", "alloc::", "<std::", "<core::", "<alloc::", "__rust_", "__libc_start", "rust_begin_unwind", "rust_panic"}

// externalRustSymbols are bare C-runtime symbols of a native backtrace.
var externalRustSymbols = []string{"_start", "main", "start_thread", "clone", "__clone", "clone3", "__scrt_common_main_seh", "BaseThreadInitThunk", "RtlUserThreadStart"}

func isExternalRust(fn string) bool {
	for _, p := range externalRust {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	for _, s := range externalRustSymbols {
		if fn == s {
			return true
		}
	}
	return false
}

// isGoStdPackage reports whether a Go function's package path is the
// standard library's: no dot in its first element ("runtime",
// "net/http"), and not the program's own main package.
func isGoStdPackage(pkg string) bool {
	if pkg == "" || pkg == "main" {
		return false
	}
	first, _, _ := strings.Cut(pkg, "/")
	return !strings.Contains(first, ".")
}
