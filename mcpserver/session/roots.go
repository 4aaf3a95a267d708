package session

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// RootsFile is the sidecar that remembers which roots the graph was built
// from, so health can name the repository after a restart.
const RootsFile = "roots.json"

func (s *State) saveRoots(roots []Root) {
	path := s.RuntimePath(RootsFile)
	if path == "" {
		return
	}
	if roots == nil {
		roots = []Root{}
	}
	err := snapshot.WriteFileAtomic(path, 0o644, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(roots)
	})
	if err != nil {
		s.logf("could not save %s: %v", path, err)
	}
}

func (s *State) loadRoots() []Root {
	path := s.RuntimePath(RootsFile)
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var roots []Root
	if err == nil {
		err = json.Unmarshal(data, &roots)
	}
	if err != nil {
		s.logf("ignoring unreadable %s: %v", path, err)
		return nil
	}
	return roots
}

// GitState returns the branch and HEAD commit of the repository containing
// path ("" for both outside git; branch "" when detached).
func GitState(path string) (branch, head string) {
	repo, err := git.PlainOpenWithOptions(path, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return "", ""
	}
	ref, err := repo.Head()
	if err != nil {
		return "", ""
	}
	if ref.Name().IsBranch() {
		branch = ref.Name().Short()
	}
	return branch, ref.Hash().String()
}

// SetClientRoots records the directories a connected client says its user
// works in (MCP roots/list), keyed by its session.
func (s *State) SetClientRoots(session string, paths []string) {
	s.clientMu.Lock()
	defer s.clientMu.Unlock()
	if s.clientRoots == nil {
		s.clientRoots = map[string][]string{}
	}
	s.clientRoots[session] = paths
}

// ClientRootsElsewhere returns the client roots that no served root
// covers (equal, inside or around it): the user works there, the graph
// describes something else.
func (s *State) ClientRootsElsewhere() []string {
	s.clientMu.Lock()
	defer s.clientMu.Unlock()
	served := s.Current().Roots
	var out []string
	for _, paths := range s.clientRoots {
		for _, p := range paths {
			if !slices.ContainsFunc(served, func(r Root) bool { return within(p, r.Path) || within(r.Path, p) }) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
