package change

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// gitRevPrefix marks a snapshot named by a git revision ("git:HEAD~3",
// "git:v1.2.0", "git:main"): the graph of the served root's tree at that
// commit.
const gitRevPrefix = "git:"

// gitSnapshotDir is where revision graphs are kept, inside the runtime
// directory, named by commit: built once, then loaded.
const gitSnapshotDir = "snapshots"

// gitRevision returns the revision a snapshot name asks for.
func gitRevision(name string) (string, bool) {
	rev, ok := strings.CutPrefix(strings.TrimSpace(name), gitRevPrefix)
	return strings.TrimSpace(rev), ok
}

// revisionError teaches the git snapshot form.
func revisionError(param, format string, args ...any) error {
	return tools.Errorf(fmt.Sprintf("%s may name a commit of the served repository as git:<revision> (git:HEAD~3, git:v1.2.0, git:main), \"current\", or a snapshot file in the runtime directory.", param), format, args...).
		WithExample(map[string]any{"agent_id": "claude", "snapshot_a": "git:HEAD~1", "snapshot_b": "current"})
}

// gitSnapshot is the graph of the served git root at a revision: the
// commit's tree (git archive, the root's subdirectory only) ingested by
// the code adapter into a temporary directory, which is removed after.
// With a runtime directory the graph is saved there as
// snapshots/git-<commit>.bin and loaded from it next time.
func gitSnapshot(c *tools.Call, rev, param string) (*graph.Graph, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, revisionError(param, "%s %q names no revision", param, gitRevPrefix+rev)
	}
	var root string
	_ = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		for _, r := range b.Roots {
			if r.Adapter == "" || r.Adapter == "code" {
				root = r.Path
				break
			}
		}
		return nil
	})
	if root == "" {
		return nil, revisionError(param, "no code root is served, so %s%s has no repository to read", gitRevPrefix, rev)
	}
	git := func(args ...string) (string, error) {
		out, err := exec.CommandContext(c.Ctx, "git", append([]string{"-C", root}, args...)...).Output()
		return strings.TrimSpace(string(out)), err
	}
	commit, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil || commit == "" {
		return nil, revisionError(param, "%s %q is not a commit of the repository at %s", param, rev, root)
	}
	prefix, _ := git("rev-parse", "--show-prefix")
	cache := ""
	if dir := c.Session.Config().RuntimeDir; dir != "" {
		cache = filepath.Join(dir, gitSnapshotDir, "git-"+commit[:min(len(commit), 16)]+".bin")
		if g, err := snapshot.Load(cache); err == nil {
			return g, nil
		}
	}
	g, err := ingestRevision(c.Ctx, root, commit, prefix)
	if err != nil {
		return nil, revisionError(param, "could not build the graph of %s: %v", rev, err)
	}
	if cache != "" {
		if os.MkdirAll(filepath.Dir(cache), 0o755) == nil {
			_ = snapshot.Save(g, cache) // a cache: a failed save only costs a rebuild
		}
	}
	return g, nil
}

// ingestRevision extracts the commit's tree under prefix into a temporary
// directory and ingests it.
func ingestRevision(ctx context.Context, root, commit, prefix string) (*graph.Graph, error) {
	tmp, err := os.MkdirTemp("", "m1nd-rev-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	args := []string{"-C", root, "archive", "--format=tar", commit}
	if prefix != "" {
		args = append(args, "--", prefix)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	xerr := untar(out, tmp)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git archive: %w", err)
	}
	if xerr != nil {
		return nil, xerr
	}
	res, err := ingest.Run(ctx, ingest.Config{Root: filepath.Join(tmp, filepath.FromSlash(prefix))}, nil)
	if err != nil {
		return nil, err
	}
	return res.Graph, nil
}

// untar writes a tar stream's regular files and directories under dir;
// links and names leaving dir are skipped.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name == "." || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := writeFile(dst, tr); err != nil {
				return err
			}
		}
	}
}

func writeFile(dst string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
