// Command m1nd-risktruth checks trust and tremor (core/risk) against a
// repository's own later history: it cuts the history, scores every
// module from the commits before the cut, and asks whether the fix
// commits after the cut land on low-trust modules more often than on
// high-trust ones — against plain change frequency as the baseline.
//
// The cut rule (fixed before any tuning, docs/design.md#trust): commits
// without merges, oldest first; the cut is the time of the commit at 80 %
// of them; modules are the source files (by extension) touched before the
// cut that still exist at HEAD; mass edits (more than risk.MaxCommitFiles
// files) are skipped on both sides; a module is "fixed later" when a fix
// commit (risk.IsFix) after the cut touches it.
//
//	m1nd-risktruth -git /path/to/repo.git -ext .py
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/risk"
)

func main() {
	gitDir := flag.String("git", "", "git directory (or work tree) of the repository")
	ext := flag.String("ext", ".py", "source file extension(s), comma-separated")
	cutAt := flag.Float64("cut", 0.8, "share of the commits before the cut")
	beta := flag.Bool("beta", false, "score with the first trust model (defects per change, Beta(1,1) prior) instead of risk.Compute")
	flag.Parse()
	commits, head, err := readLog(*gitDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	exts := strings.Split(*ext, ",")
	src := func(p string) bool {
		return head[p] && slices.ContainsFunc(exts, func(e string) bool { return strings.HasSuffix(p, e) })
	}
	cut := commits[int(float64(len(commits))*(*cutAt))].Time
	var train []risk.Commit[string]
	later := map[string]int{}
	laterFixes := 0
	for _, c := range commits {
		if c.Time < cut {
			train = append(train, c)
			continue
		}
		if len(c.Modules) > risk.MaxCommitFiles || !risk.IsFix(c.Subject) {
			continue
		}
		laterFixes++
		for _, m := range c.Modules {
			later[m]++
		}
	}
	ev := risk.HistoryEvidence(train, cut)
	ages := risk.ChangeAges(train, cut)
	span := float64(cut - commits[0].Time)
	type mod struct {
		name          string
		trust, freq   float64
		tremor, accel float64
		fixed         bool
		tier          risk.Tier
	}
	var mods []mod
	for m, e := range ev {
		if !src(m) {
			continue
		}
		s := risk.Compute(*e, risk.HalfLifeHours)
		if *beta {
			s.Trust = betaTrust(*e)
			s.Tier = risk.TierOf(s.Trust)
		}
		r := risk.Measure(ages[m], span, risk.All.Bins())
		r90 := risk.Measure(ages[m], risk.Days90.Span(), risk.Days90.Bins())
		mods = append(mods, mod{name: m, trust: s.Trust, tier: s.Tier, freq: float64(e.Changes), tremor: r.MeanAccel, accel: r90.MeanAccel, fixed: later[m] > 0})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].name < mods[j].name })
	fmt.Printf("repository %s: %d commits, cut at commit %d (%s), %d modules, %d later fix commits, %d modules fixed later\n",
		*gitDir, len(commits), int(float64(len(commits))*(*cutAt)), fmtTime(cut), len(mods), laterFixes, count(mods, func(m mod) bool { return m.fixed }))
	for _, t := range []risk.Tier{risk.HighRisk, risk.MediumRisk, risk.LowRisk} {
		n := count(mods, func(m mod) bool { return m.tier == t })
		f := count(mods, func(m mod) bool { return m.tier == t && m.fixed })
		fmt.Printf("  %-10s %4d modules, %4d fixed later (%.1f %%)\n", t, n, f, pct(f, n))
	}
	labels := make([]bool, len(mods))
	for i, m := range mods {
		labels[i] = m.fixed
	}
	score := func(f func(mod) float64) []float64 {
		out := make([]float64, len(mods))
		for i, m := range mods {
			out[i] = f(m)
		}
		return out
	}
	lowTrust := score(func(m mod) float64 { return 1 - m.trust })
	freq := score(func(m mod) float64 { return m.freq })
	fmt.Printf("  AUC (fixed later): 1−trust %.3f | change frequency %.3f | tremor all %.3f | tremor 90d %.3f\n",
		auc(lowTrust, labels), auc(freq, labels), auc(score(func(m mod) float64 { return m.tremor }), labels), auc(score(func(m mod) float64 { return m.accel }), labels))
	n := count(mods, func(m mod) bool { return m.tier == risk.HighRisk })
	fmt.Printf("  top %d (the HighRisk count): lowest trust %d fixed later, most changed %d\n", n, topHits(lowTrust, labels, n), topHits(freq, labels, n))
	touches := make([]float64, len(mods))
	for i, m := range mods {
		touches[i] = float64(later[m.name])
	}
	lo, hi := halves(lowTrust, touches)
	flo, fhi := halves(freq, touches)
	fmt.Printf("  later fix touches: lower-trust half %.0f, higher-trust half %.0f | more-changed half %.0f, less-changed half %.0f\n", lo, hi, flo, fhi)
}

// halves splits the modules at the median score (ties by name) and sums
// w over the upper (riskier) and lower half.
func halves(score, w []float64) (upper, lower float64) {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	for r, i := range idx {
		if r < len(idx)/2 {
			upper += w[i]
		} else {
			lower += w[i]
		}
	}
	return upper, lower
}

// betaTrust is the first trust model, kept to reproduce its figures:
// base = 1 − (defects + 1)/(trials + 2) per change, the same recency.
func betaTrust(e risk.Evidence) float64 {
	bad := float64(e.Fixes+e.Defects) + 0.5*float64(e.Partials)
	base := 1 - (bad+1)/(float64(e.Observations())+2)
	rec := 1.0
	if e.LastDefectHours >= 0 {
		rec = 1 - math.Exp2(-e.LastDefectHours/risk.HalfLifeHours)
	}
	return base * (risk.RecencyFloor + (1-risk.RecencyFloor)*rec)
}

func count[T any](s []T, f func(T) bool) int {
	n := 0
	for _, v := range s {
		if f(v) {
			n++
		}
	}
	return n
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// auc is the probability that a random positive scores above a random
// negative (ties count half).
func auc(score []float64, pos []bool) float64 {
	var np, nn, wins float64
	for i := range score {
		for j := range score {
			if !pos[i] || pos[j] {
				continue
			}
			switch {
			case score[i] > score[j]:
				wins++
			case score[i] == score[j]:
				wins += 0.5
			}
		}
	}
	for _, p := range pos {
		if p {
			np++
		} else {
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	return wins / (np * nn)
}

// topHits counts the positives among the n best scores (ties by index,
// which is by name).
func topHits(score []float64, pos []bool, n int) int {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	hits := 0
	for _, i := range idx[:min(n, len(idx))] {
		if pos[i] {
			hits++
		}
	}
	return hits
}

func fmtTime(t int64) string { return strconv.FormatInt(t, 10) }

// readLog reads the non-merge commits, oldest first, and the files at HEAD.
func readLog(dir string) ([]risk.Commit[string], map[string]bool, error) {
	out, err := exec.Command("git", "--git-dir", gitDirOf(dir), "log", "--no-merges", "--reverse", "--format=%x00%at%x09%s", "--name-only").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("git log: %w", err)
	}
	var commits []risk.Commit[string]
	for _, rec := range bytes.Split(out, []byte{0})[1:] {
		sc := bufio.NewScanner(bytes.NewReader(rec))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		if !sc.Scan() {
			continue
		}
		first := sc.Text()
		tab := strings.IndexByte(first, '\t')
		t, _ := strconv.ParseInt(first[:max(tab, 0)], 10, 64)
		c := risk.Commit[string]{Time: t, Subject: first[tab+1:]}
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				c.Modules = append(c.Modules, l)
			}
		}
		commits = append(commits, c)
	}
	sort.SliceStable(commits, func(i, j int) bool { return commits[i].Time < commits[j].Time })
	ls, err := exec.Command("git", "--git-dir", gitDirOf(dir), "ls-tree", "-r", "--name-only", "HEAD").Output()
	if err != nil {
		return nil, nil, fmt.Errorf("git ls-tree: %w", err)
	}
	head := map[string]bool{}
	for _, l := range strings.Split(string(ls), "\n") {
		head[l] = true
	}
	return commits, head, nil
}

func gitDirOf(dir string) string {
	if st, err := os.Stat(dir + "/.git"); err == nil && st.IsDir() {
		return dir + "/.git"
	}
	return dir
}
