package documents

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The commit that made an example's call fail is found the way a reader
// would bisect it: the def's file at each first-parent commit that
// touched it, newest first, until a version accepts the call; the
// commit after that version is the one that broke it.

// maxExampleCommits bounds the versions of one file read back.
const maxExampleCommits = 400

// breakage is what history says about a rejected call.
type breakage struct {
	commit, subject string
	when            float64
	renamedTo       string // the one parameter that came in as param went
	note            string // why no commit is named
}

func (b breakage) describe(param string) string {
	if b.commit == "" {
		return "; " + b.note
	}
	s := fmt.Sprintf("; it fit until %s (%s, %q)", b.commit, time.Unix(int64(b.when), 0).UTC().Format("2006-01-02"), b.subject)
	if param != "" && b.renamedTo != "" {
		s += ", which renamed " + param + " to " + b.renamedTo
	} else if param != "" {
		s += ", which removed " + param
	}
	return s
}

// fileVersions are a file's texts at the first-parent commits that
// touched it, newest first.
type fileVersions struct {
	commits  []string
	times    []float64
	subjects []string
	texts    [][]byte // nil: the file is absent there
}

// breakingCommit traces the call k rejects back through its def file.
func (s *driftSources) breakingCommit(k callable, c exCall) breakage {
	v, err := s.versions(k.path)
	if err != nil {
		return breakage{note: "no commit named: " + err.Error()}
	}
	var later pySig
	for i := range v.commits {
		sig, ok := k.sigAt(v.texts[i])
		if !ok {
			if i == 0 {
				return breakage{note: "no commit named: the committed file differs from the checkout"}
			}
			return breakage{note: "no commit named: " + defName(k) + " is not in " + k.path + " before " + short(v.commits[i-1]) + " (moved there?)"}
		}
		if _, why := sig.rejects(c); why == "" {
			if i == 0 {
				return breakage{note: "no commit named: the last commit accepts the call (an uncommitted change rejects it)"}
			}
			return breakage{commit: short(v.commits[i-1]), when: v.times[i-1], subject: v.subjects[i-1], renamedTo: renamed(sig, later)}
		}
		later = sig
	}
	return breakage{note: fmt.Sprintf("no commit named: no version in the %d commits read accepts the call", len(v.commits))}
}

// sigAt is the signature the call meets in one version of the file.
func (k callable) sigAt(text []byte) (pySig, bool) {
	if text == nil {
		return pySig{}, false
	}
	if k.def != graph.NoNode {
		sig, _, ok := sigIn(string(text), k.qual)
		return sig, ok
	}
	if d, ok := findDef(pyOutline(pyLines(string(text))), k.qual); !ok || !d.class {
		return pySig{}, false
	}
	if sig, _, ok := sigIn(string(text), k.qual+".__init__"); ok {
		return sig, true
	}
	return pySig{}, true
}

// renamed is the single parameter newer has that older had not, when
// exactly one went the other way too.
func renamed(older, newer pySig) string {
	var gone, came []string
	for _, p := range older.params {
		if !newer.hasKeyword(p.name) {
			gone = append(gone, p.name)
		}
	}
	for _, p := range newer.params {
		if !older.hasKeyword(p.name) {
			came = append(came, p.name)
		}
	}
	if len(gone) == 1 && len(came) == 1 {
		return came[0]
	}
	return ""
}

func short(h string) string { return h[:min(len(h), 12)] }

// versions reads a graph file's history once per bundle and call.
func (s *driftSources) versions(p string) (*fileVersions, error) {
	res, _, _, err := tools.BundleSpace(s.b).Resolve(tools.BundleGuard(s.b), p)
	if err != nil || !res.Exists {
		return nil, fmt.Errorf("%s is not readable", p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.exHist[p]; ok {
		return v, nil
	}
	top := s.topLevel(filepath.Dir(res.Real))
	if top == "" {
		return nil, fmt.Errorf("%s is outside git", p)
	}
	rel, err := filepath.Rel(top, res.Real)
	if err != nil {
		return nil, err
	}
	v, err := readVersions(top, filepath.ToSlash(rel))
	if err != nil {
		return nil, err
	}
	s.exHist[p] = v
	return v, nil
}

// readVersions: one git log for the commits, one git cat-file --batch
// for the texts.
func readVersions(top, rel string) (*fileVersions, error) {
	ctx := context.Background()
	out, err := exec.CommandContext(ctx, "git", "-C", top, "log", "--first-parent", "-n", strconv.Itoa(maxExampleCommits), "--format=%H%x09%ct%x09%s", "--", rel).Output()
	if err != nil {
		return nil, fmt.Errorf("git log of %s failed", rel)
	}
	v := &fileVersions{}
	var req bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) < 3 {
			continue
		}
		t, _ := strconv.ParseFloat(f[1], 64)
		v.commits, v.times, v.subjects = append(v.commits, f[0]), append(v.times, t), append(v.subjects, f[2])
		req.WriteString(f[0] + ":" + rel + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "-C", top, "cat-file", "--batch")
	cmd.Stdin = &req
	blob, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file failed")
	}
	v.texts = splitBatch(blob, len(v.commits))
	return v, nil
}

// splitBatch reads n answers of git cat-file --batch: "<sha> blob <size>"
// and the content, or "<name> missing".
func splitBatch(out []byte, n int) [][]byte {
	texts := make([][]byte, n)
	r := bufio.NewReader(bytes.NewReader(out))
	for i := 0; i < n; i++ {
		head, err := r.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			continue // missing
		}
		size, _ := strconv.Atoi(f[2])
		buf := make([]byte, size+1)
		if _, err := io.ReadFull(r, buf); err != nil {
			break
		}
		texts[i] = buf[:size]
	}
	return texts
}
