package edit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Layers B (compile/check) and D (tests) run the project's own tools on
// the files written: go build and go vet, a Python compile of each file,
// tsc --noEmit where the project has a tsconfig, node --check, cargo
// check; go test, pytest (or unittest), cargo test. Each runs only when
// its toolchain is installed, with a timeout, and says "skipped" and why
// otherwise. Nothing they run writes into the tree: Python never writes
// bytecode, pytest keeps no cache.

// Check is one command of layers B and D.
type Check struct {
	Layer    string `json:"layer"` // "B" or "D"
	Language string `json:"language"`
	Command  string `json:"command"`
	Dir      string `json:"dir,omitempty"`
	// Status: passed, failed, skipped, timeout, error (could not run),
	// no_tests.
	Status string `json:"status"`
	// Blocking: a failure here breaks the build (BROKEN), not just a
	// warning (go vet, tests: RISKY).
	Blocking    bool    `json:"blocking"`
	ExitCode    int     `json:"exit_code"`
	Output      string  `json:"output,omitempty"`
	Reason      string  `json:"reason,omitempty"`
	ElapsedMs   float64 `json:"elapsed_ms"`
	TestsRun    int     `json:"tests_run,omitempty"`
	TestsPassed int     `json:"tests_passed,omitempty"`
	TestsFailed int     `json:"tests_failed,omitempty"`
	// Syntax: the check reads syntax only (python compile, node --check):
	// its pass says nothing of names or behaviour.
	Syntax bool `json:"-"`
}

// File is a written file as the runners see it.
type File struct {
	Abs  string // real absolute path
	Root string // real path of its ingest root
}

// Runner runs checks with a per-command timeout.
type Runner struct {
	Timeout time.Duration
	// LookPath finds a toolchain (exec.LookPath when nil).
	LookPath func(string) (string, error)
	// MaxOutput bounds each check's output (2 KB when 0).
	MaxOutput int
}

func (r *Runner) look(name string) (string, bool) {
	lp := r.LookPath
	if lp == nil {
		lp = exec.LookPath
	}
	p, err := lp(name)
	return p, err == nil
}

// Compile runs layer B on the written files.
func (r *Runner) Compile(ctx context.Context, files []File) []Check {
	var out []Check
	byExt := groupByLang(files)
	for _, mod := range goModules(byExt["go"]) {
		out = append(out, r.goBuild(ctx, mod)...)
	}
	if fs := byExt["python"]; len(fs) > 0 {
		out = append(out, r.pyCompile(ctx, fs))
	}
	if fs := byExt["typescript"]; len(fs) > 0 {
		out = append(out, r.tsc(ctx, fs)...)
	}
	if fs := byExt["javascript"]; len(fs) > 0 {
		out = append(out, r.nodeCheck(ctx, fs)...)
	}
	for _, dir := range cargoDirs(byExt["rust"]) {
		out = append(out, r.cargo(ctx, dir, "B", "check", "--message-format=short", "--quiet"))
	}
	return out
}

// Tests runs layer D: the tests of the written files' Go packages, the
// Python test files given (written or linked to what was written), and a
// Rust crate's tests.
func (r *Runner) Tests(ctx context.Context, files, tests []File) []Check {
	var out []Check
	all := append(slices.Clone(files), tests...)
	byExt := groupByLang(all)
	for _, mod := range goModules(byExt["go"]) {
		out = append(out, r.goTest(ctx, mod))
	}
	var py []File
	for _, f := range byExt["python"] {
		if IsTestFile(f.Abs[len(f.Root):]) {
			py = append(py, f)
		}
	}
	if len(py) > 0 {
		out = append(out, r.pyTests(ctx, py))
	}
	for _, dir := range cargoDirs(byExt["rust"]) {
		c := r.cargo(ctx, dir, "D", "test", "--quiet")
		c.Blocking = false
		out = append(out, c)
	}
	return out
}

func groupByLang(files []File) map[string][]File {
	out := map[string][]File{}
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.Abs] {
			continue
		}
		seen[f.Abs] = true
		lang := ""
		switch strings.ToLower(filepath.Ext(f.Abs)) {
		case ".go":
			lang = "go"
		case ".py":
			lang = "python"
		case ".ts", ".tsx", ".mts", ".cts":
			lang = "typescript"
		case ".js", ".mjs", ".cjs":
			lang = "javascript"
		case ".rs":
			lang = "rust"
		}
		if lang != "" {
			out[lang] = append(out[lang], f)
		}
	}
	return out
}

// goModule is a module root and the package directories written in it
// (relative, "./x/y").
type goModule struct {
	dir  string
	pkgs []string
}

func goModules(files []File) []goModule {
	var mods []goModule
	for _, f := range files {
		dir := filepath.Dir(f.Abs)
		root := findUp(dir, "go.mod", "")
		if root == "" {
			continue
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil || skipGoDir(rel) {
			continue
		}
		pkg := "./" + filepath.ToSlash(rel)
		if rel == "." {
			pkg = "."
		}
		i := slices.IndexFunc(mods, func(m goModule) bool { return m.dir == root })
		if i < 0 {
			mods = append(mods, goModule{dir: root})
			i = len(mods) - 1
		}
		if !slices.Contains(mods[i].pkgs, pkg) {
			mods[i].pkgs = append(mods[i].pkgs, pkg)
		}
	}
	for i := range mods {
		slices.Sort(mods[i].pkgs)
	}
	return mods
}

// skipGoDir: testdata and _/. directories are no packages the go command
// builds.
func skipGoDir(rel string) bool {
	for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
		if p == "testdata" || strings.HasPrefix(p, "_") || (strings.HasPrefix(p, ".") && p != ".") {
			return true
		}
	}
	return false
}

// findUp returns the nearest directory from dir upward (not above stop,
// when set) holding name.
func findUp(dir, name, stop string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir || (stop != "" && dir == stop) {
			return ""
		}
		dir = parent
	}
}

func (r *Runner) goBuild(ctx context.Context, m goModule) []Check {
	goBin, ok := r.look("go")
	if !ok {
		return []Check{{Layer: "B", Language: "go", Command: "go build ./...", Dir: m.dir, Status: "skipped", Reason: "the go toolchain is not installed"}}
	}
	build := r.run(ctx, "B", "go", m.dir, nil, goBin, "build", "./...")
	build.Blocking = true
	if build.Status != "passed" {
		return []Check{build}
	}
	vet := r.run(ctx, "B", "go", m.dir, nil, goBin, append([]string{"vet"}, m.pkgs...)...)
	return []Check{build, vet}
}

func (r *Runner) goTest(ctx context.Context, m goModule) Check {
	goBin, ok := r.look("go")
	if !ok {
		return Check{Layer: "D", Language: "go", Command: "go test", Dir: m.dir, Status: "skipped", Reason: "the go toolchain is not installed"}
	}
	c := r.run(ctx, "D", "go", m.dir, nil, goBin, append([]string{"test", "-count=1", "-json"}, m.pkgs...)...)
	parseGoTest(&c, r.maxOut())
	return c
}

// parseGoTest counts go test -json events (top-level tests only) and
// keeps the output of what failed.
func parseGoTest(c *Check, max int) {
	type event struct {
		Action, Test, Output string
	}
	outs := map[string]*strings.Builder{}
	var failed []string
	sc := bufio.NewScanner(strings.NewReader(c.Output))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var plain strings.Builder
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			plain.WriteString(sc.Text() + "\n") // build errors are printed as text
			continue
		}
		top := e.Test != "" && !strings.Contains(e.Test, "/")
		switch e.Action {
		case "output":
			b := outs[e.Test]
			if b == nil {
				b = &strings.Builder{}
				outs[e.Test] = b
			}
			if b.Len() < max {
				b.WriteString(e.Output)
			}
		case "pass":
			if top {
				c.TestsRun++
				c.TestsPassed++
			}
		case "fail":
			if top {
				c.TestsRun++
				c.TestsFailed++
				failed = append(failed, e.Test)
			}
		}
	}
	var sb strings.Builder
	sb.WriteString(plain.String())
	for _, t := range failed {
		sb.WriteString(outs[t].String())
	}
	if len(failed) == 0 && c.Status == "failed" {
		if b := outs[""]; b != nil {
			sb.WriteString(b.String())
		}
		c.TestsFailed = max1(c.TestsFailed)
	}
	c.Output = clipOut(sb.String(), max)
	if c.Status == "passed" && c.TestsRun == 0 {
		c.Status = "no_tests"
	}
}

func max1(n int) int { return max(n, 1) }

// pyCompileScript compiles each file without writing bytecode and prints
// file:line:col: message for each syntax error.
const pyCompileScript = `import sys
bad = 0
for f in sys.argv[1:]:
    try:
        with open(f, 'rb') as h:
            compile(h.read(), f, 'exec', dont_inherit=True)
    except SyntaxError as e:
        bad = 1
        print("%s:%s:%s: %s" % (e.filename, e.lineno, e.offset, e.msg))
    except Exception as e:
        bad = 1
        print("%s: %s" % (f, e))
sys.exit(bad)
`

func (r *Runner) python() (string, bool) {
	if p, ok := r.look("python3"); ok {
		return p, true
	}
	return r.look("python")
}

var pyEnv = []string{"PYTHONDONTWRITEBYTECODE=1"}

func (r *Runner) pyCompile(ctx context.Context, files []File) Check {
	py, ok := r.python()
	if !ok {
		return Check{Layer: "B", Language: "python", Command: "python -c compile(...)", Status: "skipped", Reason: "python is not installed"}
	}
	args := []string{"-c", pyCompileScript}
	for _, f := range files {
		args = append(args, f.Abs)
	}
	c := r.run(ctx, "B", "python", files[0].Root, pyEnv, py, args...)
	c.Command = fmt.Sprintf("python -c compile(<file>) on %d files", len(files))
	c.Blocking, c.Syntax = true, true
	return c
}

var (
	pytestCount   = regexp.MustCompile(`(\d+) (passed|failed|error|errors)\b`)
	unittestRan   = regexp.MustCompile(`Ran (\d+) tests?`)
	unittestFails = regexp.MustCompile(`(failures|errors)=(\d+)`)
)

// countUnittest reads unittest's summary (Ran N tests, failures=, errors=)
// into c's test counts.
func countUnittest(c *Check) {
	if m := unittestRan.FindStringSubmatch(c.Output); m != nil {
		c.TestsRun, _ = strconv.Atoi(m[1])
	}
	for _, m := range unittestFails.FindAllStringSubmatch(c.Output, -1) {
		n, _ := strconv.Atoi(m[2])
		c.TestsFailed += n
	}
	c.TestsPassed = max(0, c.TestsRun-c.TestsFailed)
}

func (r *Runner) pyTests(ctx context.Context, files []File) Check {
	py, ok := r.python()
	if !ok {
		return Check{Layer: "D", Language: "python", Command: "pytest", Status: "skipped", Reason: "python is not installed"}
	}
	root := files[0].Root
	var rels []string
	for _, f := range files {
		if rel, err := filepath.Rel(root, f.Abs); err == nil && !strings.HasPrefix(rel, "..") {
			rels = append(rels, rel)
		}
	}
	if probe := r.run(ctx, "D", "python", root, pyEnv, py, "-c", "import pytest"); probe.Status == "passed" {
		c := r.run(ctx, "D", "python", root, pyEnv, py, append([]string{"-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"}, rels...)...)
		for _, m := range pytestCount.FindAllStringSubmatch(c.Output, -1) {
			n, _ := strconv.Atoi(m[1])
			if m[2] == "passed" {
				c.TestsPassed += n
			} else {
				c.TestsFailed += n
			}
		}
		c.TestsRun = c.TestsPassed + c.TestsFailed
		if c.ExitCode == 5 { // pytest: no tests collected
			c.Status = "no_tests"
		}
		return c
	}
	// No pytest: unittest runs the unittest-style tests of these files.
	c := r.run(ctx, "D", "python", root, pyEnv, py, append([]string{"-m", "unittest"}, rels...)...)
	c.Reason = "pytest is not installed: ran unittest"
	countUnittest(&c)
	if c.TestsRun == 0 && c.Status != "timeout" {
		c.Status = "no_tests"
	}
	return c
}

func (r *Runner) tsc(ctx context.Context, files []File) []Check {
	var out []Check
	seen := map[string]bool{}
	for _, f := range files {
		dir := findUp(filepath.Dir(f.Abs), "tsconfig.json", f.Root)
		if dir == "" {
			if !seen[""] {
				seen[""] = true
				out = append(out, Check{Layer: "B", Language: "typescript", Command: "tsc --noEmit", Status: "skipped", Reason: "the project has no tsconfig.json"})
			}
			continue
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		bin := filepath.Join(dir, "node_modules", ".bin", "tsc")
		if _, err := os.Stat(bin); err != nil {
			var ok bool
			if bin, ok = r.look("tsc"); !ok {
				out = append(out, Check{Layer: "B", Language: "typescript", Command: "tsc --noEmit", Dir: dir, Status: "skipped", Reason: "tsc is not installed (neither in node_modules/.bin nor on PATH)"})
				continue
			}
		}
		c := r.run(ctx, "B", "typescript", dir, nil, bin, "--noEmit", "-p", dir)
		c.Blocking = true
		out = append(out, c)
	}
	return out
}

func (r *Runner) nodeCheck(ctx context.Context, files []File) []Check {
	node, ok := r.look("node")
	if !ok {
		return []Check{{Layer: "B", Language: "javascript", Command: "node --check", Status: "skipped", Reason: "node is not installed"}}
	}
	var out []Check
	for _, f := range files[:min(len(files), 16)] {
		c := r.run(ctx, "B", "javascript", filepath.Dir(f.Abs), nil, node, "--check", f.Abs)
		c.Blocking, c.Syntax = true, true
		out = append(out, c)
	}
	return out
}

func cargoDirs(files []File) []string {
	var out []string
	for _, f := range files {
		if d := findUp(filepath.Dir(f.Abs), "Cargo.toml", ""); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func (r *Runner) cargo(ctx context.Context, dir, layer string, args ...string) Check {
	bin, ok := r.look("cargo")
	if !ok {
		return Check{Layer: layer, Language: "rust", Command: "cargo " + strings.Join(args, " "), Dir: dir, Status: "skipped", Reason: "cargo is not installed"}
	}
	c := r.run(ctx, layer, "rust", dir, nil, bin, args...)
	c.Blocking = layer == "B"
	return c
}

func (r *Runner) maxOut() int {
	if r.MaxOutput > 0 {
		return r.MaxOutput
	}
	return 2 << 10
}

// run executes one command in dir with the runner's timeout, killing its
// whole process group when the time is up.
func (r *Runner) run(ctx context.Context, layer, lang, dir string, env []string, bin string, args ...string) Check {
	c := Check{Layer: layer, Language: lang, Dir: dir, Command: path.Base(bin) + " " + strings.Join(args, " ")}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err := cmd.Run()
	c.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	full := buf.String()
	c.Output = full
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		c.Status, c.ExitCode, c.Reason = "timeout", -1, fmt.Sprintf("stopped after %s", timeout)
	case ctx.Err() != nil:
		c.Status, c.ExitCode, c.Reason = "error", -1, "cancelled"
	case errors.As(err, &ee):
		c.Status, c.ExitCode = "failed", ee.ExitCode()
	case err != nil:
		c.Status, c.ExitCode, c.Reason = "error", -1, err.Error()
	default:
		c.Status = "passed"
	}
	if layer != "D" || lang != "go" { // go test output is parsed first
		c.Output = clipOut(full, r.maxOut())
	}
	return c
}

func clipOut(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	return s[:max] + fmt.Sprintf("\n… [%d more bytes]", len(s)-max)
}
