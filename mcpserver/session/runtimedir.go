package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// The runtime directory usually sits inside the repository it serves
// (.m1nd at its top). Two marker files keep it out of the user's way, as
// Python's venv and Cargo's target do: a .gitignore holding "*" (git
// status, git add -A, ripgrep and most editors' searches skip it; it
// ignores itself too, so nothing of it is ever committed) and a
// CACHEDIR.TAG (backup tools skip it).
const (
	runtimeGitignore = "# Created by m1nd: its graph, journals and learned state. Nothing here belongs in git.\n*\n"
	cacheDirTag      = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by m1nd.\n# For information about cache directory tags, see https://bford.info/cachedir/\n"
)

// markRuntimeDir writes the marker files into dir when they are missing;
// a file the user changed is left as it is.
func markRuntimeDir(dir string) error {
	for name, body := range map[string]string{".gitignore": runtimeGitignore, "CACHEDIR.TAG": cacheDirTag} {
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		_, err = f.WriteString(body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
			return err
		}
	}
	return nil
}
