package cli

import (
	"os"
	"path/filepath"
)

// DefaultRuntimeDirName is the runtime directory's name at the top of the
// repository: what `make run` serves (<repo>/.m1nd).
const DefaultRuntimeDirName = ".m1nd"

// repoRoot returns the top of the git repository containing dir (a .git
// directory, or the .git file of a worktree), else dir itself.
func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// runtimeDir is where the graph lives and why: --runtime-dir, else
// M1ND_RUNTIME_DIR, else .m1nd at the repository root.
type runtimeDir struct {
	Path   string
	Source string // "--runtime-dir", "M1ND_RUNTIME_DIR" or "default"
}

func resolveRuntimeDir(flagDir, cwd string, getenv func(string) string) runtimeDir {
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	switch {
	case flagDir != "":
		return runtimeDir{abs(flagDir), "--runtime-dir"}
	case getenv("M1ND_RUNTIME_DIR") != "":
		return runtimeDir{abs(getenv("M1ND_RUNTIME_DIR")), "M1ND_RUNTIME_DIR"}
	}
	return runtimeDir{filepath.Join(repoRoot(cwd), DefaultRuntimeDirName), "default"}
}
