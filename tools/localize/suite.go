package localize

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// SuiteConfig runs the benchmark over pinned repositories (repos.tsv).
type SuiteConfig struct {
	Repos []Repo
	// Mirror finds the git directory of an owner/name ("" if absent).
	Mirror func(slug string) string
	// Base is applied to every repository: Repo and Mine.Rev are set per
	// repository from Mirror and the pinned commit.
	Base Config
}

// MirrorOf finds the git directory of slug (owner/name) under dir, a
// folder of mirrors named owner+name (a bare repository, or one holding
// repo); "" when there is none. A SuiteConfig's Mirror, mostly.
func MirrorOf(dir, slug string) string {
	name := strings.ReplaceAll(slug, "/", "+")
	for _, p := range []string{filepath.Join(dir, name, "repo"), filepath.Join(dir, name)} {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
	}
	return ""
}

// RepoReport is one repository's run.
type RepoReport struct {
	Repo
	Path   string  `json:"path"`
	Err    string  `json:"error,omitempty"`
	Report *Report `json:"report,omitempty"`
}

// Group is a row of the suite's tables: one repository, one language of
// a split, or a whole split.
type Group struct {
	Split string `json:"split"`
	Lang  string `json:"language"`
	// Name is the repository, "all <lang>" or "all".
	Name   string            `json:"name"`
	Tasks  int               `json:"tasks"`
	Scores map[string]Scores `json:"scores"`
}

// SuiteReport is a whole suite's result.
type SuiteReport struct {
	Started  time.Time         `json:"started"`
	ElapsedS float64           `json:"elapsed_s"`
	Machine  map[string]string `json:"machine"`
	Methods  []string          `json:"methods"`
	Repos    []RepoReport      `json:"repos"`
	Groups   []Group           `json:"groups"`
}

// RunSuite runs every repository of cfg in order and summarises them.
func RunSuite(ctx context.Context, cfg SuiteConfig) *SuiteReport {
	start := time.Now()
	rep := &SuiteReport{Started: start.UTC(), Machine: MachineFacts(), Methods: suiteMethods(cfg.Base)}
	for _, r := range cfg.Repos {
		rr := RepoReport{Repo: r, Path: cfg.Mirror(r.Slug)}
		if rr.Path == "" {
			rr.Err = fmt.Sprintf("no git mirror of %s: fetch it first (github:%s)", r.Slug, r.Slug)
			rep.Repos = append(rep.Repos, rr)
			continue
		}
		c := cfg.Base
		c.Repo, c.Mine.Rev = rr.Path, r.Commit
		out, err := Run(ctx, c)
		if err != nil {
			rr.Err = err.Error()
		}
		rr.Report = out
		rep.Repos = append(rep.Repos, rr)
		if ctx.Err() != nil {
			break
		}
	}
	rep.Summarize()
	rep.ElapsedS = round4(time.Since(start).Seconds())
	return rep
}

func suiteMethods(c Config) []string {
	var ms []string
	for _, m := range Methods {
		if c.wants(m) {
			ms = append(ms, m)
		}
	}
	return ms
}

// ScoreResults scores method over recorded task results: hits from each
// task's top 10, MRR from its first gold rank (so a report read back
// from JSON can be re-grouped).
func ScoreResults(rs []TaskResult, method string) Scores {
	tasks := make([]Task, len(rs))
	rankings := make([][]string, len(rs))
	failed := make([]bool, len(rs))
	for i, r := range rs {
		tasks[i], rankings[i] = r.Task, r.Ranked[method]
		_, failed[i] = r.Errors[method]
	}
	s := Score(tasks, rankings, failed)
	mrr := 0.0
	for i, r := range rs {
		if k := r.FirstGoldRank[method]; k > 0 && !failed[i] {
			mrr += 1 / float64(k)
		}
	}
	if len(rs) > 0 {
		s.MRR = round4(mrr / float64(len(rs)))
	}
	return s
}

// Summarize fills Groups split by split (tune before held-out, so each
// split is one table however repos.tsv interleaves them): its
// repositories, each language, the split as a whole; then everything.
func (s *SuiteReport) Summarize() {
	s.Groups = nil
	bySplit := map[string][]RepoReport{}
	var splits []string
	var all []TaskResult
	for _, r := range s.Repos {
		if r.Report == nil {
			continue
		}
		if _, ok := bySplit[r.Split]; !ok {
			splits = append(splits, r.Split)
		}
		bySplit[r.Split] = append(bySplit[r.Split], r)
		all = append(all, r.Report.Results...)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(splits)))
	for _, sp := range splits {
		s.summarizeSplit(sp, bySplit[sp])
	}
	s.Groups = append(s.Groups, s.group("", "", "all", all))
}

// summarizeSplit appends one split's groups: repositories in order,
// languages sorted, then the split.
func (s *SuiteReport) summarizeSplit(split string, repos []RepoReport) {
	byLang := map[string][]TaskResult{}
	var whole []TaskResult
	for _, r := range repos {
		s.Groups = append(s.Groups, s.group(split, r.Lang, r.Name, r.Report.Results))
		byLang[r.Lang] = append(byLang[r.Lang], r.Report.Results...)
		whole = append(whole, r.Report.Results...)
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		s.Groups = append(s.Groups, s.group(split, l, "all "+l, byLang[l]))
	}
	s.Groups = append(s.Groups, s.group(split, "", "all", whole))
}

func (s *SuiteReport) group(split, lang, name string, rs []TaskResult) Group {
	g := Group{Split: split, Lang: lang, Name: name, Tasks: len(rs), Scores: map[string]Scores{}}
	for _, m := range s.Methods {
		g.Scores[m] = ScoreResults(rs, m)
	}
	return g
}

// Markdown renders one table per split (repositories, then languages,
// then the split), the overall row, and latency per method.
func (s *SuiteReport) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d repositories, %s, %.0f s. Cells: Acc@1 / Acc@5 / Acc@10 / MRR.\n", len(s.Repos), s.Started.Format("2006-01-02 15:04 UTC"), s.ElapsedS)
	for _, r := range s.Repos {
		if r.Err != "" {
			fmt.Fprintf(&b, "\n- %s: %s\n", r.Name, r.Err)
		}
	}
	split := "\x00"
	for _, g := range s.Groups {
		if g.Split != split {
			split = g.Split
			title := split
			if title == "" {
				title = "everything"
			}
			fmt.Fprintf(&b, "\n### %s\n\n| repository | lang | tasks | %s |\n| --- | --- | ---: |%s\n", title,
				strings.Join(s.Methods, " | "), strings.Repeat(" --- |", len(s.Methods)))
		}
		name := g.Name
		if strings.HasPrefix(name, "all") {
			name = "**" + name + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %d |", name, g.Lang, g.Tasks)
		for _, m := range s.Methods {
			sc := g.Scores[m]
			fmt.Fprintf(&b, " %.3f / %.3f / %.3f / %.3f |", sc.AccAt1, sc.AccAt5, sc.AccAt10, sc.MRR)
		}
		b.WriteString("\n")
	}
	b.WriteString(s.latencyMarkdown())
	b.WriteString(s.repoLatencyMarkdown())
	return b.String()
}

func (s *SuiteReport) latencyMarkdown() string {
	lat := map[string][]float64{}
	var files []float64
	for _, r := range s.Repos {
		if r.Report == nil {
			continue
		}
		for _, t := range r.Report.Results {
			for m, v := range t.LatencyMs {
				lat[m] = append(lat[m], v)
			}
			if t.IngestMs > 0 {
				lat["ingest"] = append(lat["ingest"], t.IngestMs)
			}
			files = append(files, float64(t.Files))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nLatency per task, ms (client wall clock; median source files per tree %.0f):\n\n| step | p50 | p95 | max |\n| --- | ---: | ---: | ---: |\n", quantile(files, 0.5))
	for _, m := range append([]string{"ingest"}, s.Methods...) {
		v := lat[m]
		if len(v) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.1f |\n", m, quantile(v, 0.5), quantile(v, 0.95), quantile(v, 1))
	}
	return b.String()
}

// quantile is the nearest-rank q-quantile of v (0 for none).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	i := int(q*float64(len(c))+0.5) - 1
	return c[max(0, min(i, len(c)-1))]
}
