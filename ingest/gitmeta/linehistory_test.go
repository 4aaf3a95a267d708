package gitmeta

import (
	"context"
	"fmt"
	"math/rand"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// funcs renders a module of n functions, function i with body lines
// body[i]; it returns the text and each function's line range.
func funcs(body [][]string) (string, [][2]int) {
	var b strings.Builder
	var spans [][2]int
	line := 1
	for i, ls := range body {
		start := line
		fmt.Fprintf(&b, "def f%d():\n", i)
		line++
		for _, l := range ls {
			b.WriteString("    " + l + "\n")
			line++
		}
		spans = append(spans, [2]int{start, line - 1})
		b.WriteString("\n")
		line++
	}
	return b.String(), spans
}

// A function is dated by the last commit changing its own lines, not by
// later edits of its neighbours that shift it down the file.
func TestLineHistoryDatesAFunctionByItsOwnLines(t *testing.T) {
	r, body := f1Changed(t)                          // f1's own change on day 5
	body[0] = []string{"a = 0", "b = 0", "return a"} // f0 grows: f1, f2 move down
	body[2] = []string{"return 22"}
	text, spans := funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(9))

	h, err := ReadLineHistory(context.Background(), r.Dir, "m.py", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{day(9).Unix(), day(5).Unix(), day(9).Unix()} {
		got, _, ok := h.LastTouch(spans[i][0], spans[i][1])
		if !ok || got != want {
			t.Errorf("f%d lines %v: %d %v, want %d", i, spans[i], got, ok, want)
		}
	}
}

// On a long random history LastTouch agrees with
// `git log --first-parent -L lo,hi:m.py -1` for every function, and
// one walk for two files answers as each file's own log.
func TestLineHistoryAgreesWithGitLogL(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	rng := rand.New(rand.NewSource(27))
	body := make([][]string, 8)
	for i := range body {
		body[i] = []string{"return " + strconv.Itoa(i)}
	}
	var spans, nspans [][2]int
	for c := 0; c < 30; c++ {
		i := rng.Intn(len(body))
		switch rng.Intn(3) {
		case 0: // grow
			body[i] = append([]string{fmt.Sprintf("v%d = %d", c, c)}, body[i]...)
		case 1: // shrink
			if len(body[i]) > 1 {
				body[i] = body[i][1:]
			}
		default: // edit the last line
			body[i][len(body[i])-1] = fmt.Sprintf("return %d", c)
		}
		var text, ntext string
		text, spans = funcs(body)
		files := map[string]string{"m.py": text}
		if c%3 == 0 { // n.py: the same functions in reverse, changed less often
			rev := slices.Clone(body)
			slices.Reverse(rev)
			ntext, nspans = funcs(rev)
			files["n.py"] = ntext
		}
		r.Change(files, "ann", day(c))
	}
	hs, err := ReadLineHistories(context.Background(), r.Dir, []string{"m.py", "n.py"}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for file, sps := range map[string][][2]int{"m.py": spans, "n.py": nspans} {
		for i, sp := range sps {
			got, _, ok := hs[file].LastTouch(sp[0], sp[1])
			want := gitLogL(t, r.Dir, file, sp[0], sp[1])
			if !ok || got != want {
				t.Errorf("%s f%d lines %v: LastTouch %d %v, git log -L %d", file, i, sp, got, ok, want)
			}
		}
	}
}

// gitLogL is git's own date of a line range's last change.
func gitLogL(t *testing.T, dir, path string, lo, hi int) int64 {
	t.Helper()
	out, err := exec.Command(gitBinary, "-C", dir, "log", "--first-parent", "-1", "--format=%x01%ct",
		fmt.Sprintf("-L%d,%d:%s", lo, hi, path)).Output()
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(string(out), "\x01"), "\n")
	n, err := strconv.ParseInt(strings.TrimSpace(head), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A bound that cuts the log leaves older ranges unknown, never misdated.
func TestLineHistoryBound(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	body := [][]string{{"return 0"}, {"return 1"}}
	text, _ := funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(0))
	body[1] = []string{"return 11"}
	text, spans := funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(3))
	h, err := ReadLineHistory(context.Background(), r.Dir, "m.py", 200)
	if err != nil {
		t.Fatal(err)
	}
	if h.Complete {
		t.Fatal("a 200-byte bound read the whole history")
	}
	if got, _, ok := h.LastTouch(spans[1][0], spans[1][1]); !ok || got != day(3).Unix() {
		t.Errorf("f1: %d %v, want day 3", got, ok)
	}
	if _, _, ok := h.LastTouch(spans[0][0], spans[0][1]); ok {
		t.Error("f0 dated although its commit was cut")
	}
}

// Passing over a sweep (a reformat of every function) dates each
// function by its own change before the sweep, following the range
// back through the sweep's hunks.
func TestLineHistorySkipsASweep(t *testing.T) {
	r, body := f1Changed(t)
	body = [][]string{{"a = 0", "return a"}, {"x = 1", "y = x", "return y"}, {"return (2)"}} // the sweep
	text, spans := funcs(body)
	sweep := r.Change(map[string]string{"m.py": text}, "ann", day(9))

	h, err := ReadLineHistory(context.Background(), r.Dir, "m.py", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	skip := func(hash string) bool { return hash == sweep.String() }
	for i, want := range []int64{day(0).Unix(), day(5).Unix(), day(0).Unix()} {
		got, _, ok, passed := h.LastTouchSkipping(spans[i][0], spans[i][1], skip)
		if !ok || got != want || passed != 1 {
			t.Errorf("f%d lines %v: %d %v passed %d, want %d passed 1", i, spans[i], got, ok, passed, want)
		}
		if got, _, _ := h.LastTouch(spans[i][0], spans[i][1]); got != day(9).Unix() {
			t.Errorf("f%d without skipping: %d, want the sweep's day 9", i, got)
		}
	}
}

func TestCommitWidths(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	one := r.Change(map[string]string{"a.py": "1"}, "ann", day(0))
	three := r.Change(map[string]string{"a.py": "2", "b.py": "1", "c/d.py": "1"}, "ann", day(1))
	got, err := CommitWidths(context.Background(), r.Dir, []string{three.String(), one.String()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{one.String(): 1, three.String(): 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CommitWidths (-want +got):\n%s", diff)
	}
}

// Lines only skipped commits touched are dated by the oldest of them,
// the one that brought them in.
func TestLineHistorySkippingEverything(t *testing.T) {
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	text, spans := funcs([][]string{{"return 0"}})
	r.Change(map[string]string{"m.py": text}, "ann", day(0))
	text, _ = funcs([][]string{{"return (0)"}})
	r.Change(map[string]string{"m.py": text}, "ann", day(4))
	h, err := ReadLineHistory(context.Background(), r.Dir, "m.py", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	got, _, ok, passed := h.LastTouchSkipping(spans[0][0], spans[0][1], func(string) bool { return true })
	if !ok || got != day(0).Unix() || passed != 1 {
		t.Errorf("LastTouchSkipping: %d %v passed %d, want day 0, passed 1", got, ok, passed)
	}
}

// A hunk the reader's Cosmetic marks is passed over when asked: f1 is
// dated by its real change, not by the later comment edit in the same
// commit as a real change of f2, which still dates f2.
func TestLineHistoryPassesOverCosmeticHunks(t *testing.T) {
	r, body := f1Changed(t)
	body[1] = []string{"x = 1  # one", "return x"} // cosmetic
	body[2] = []string{"return 22"}                // real
	text, spans := funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(9))

	var seen [][2][]string
	uncomment := func(path string, old, new []string) bool {
		seen = append(seen, [2][]string{slices.Clone(old), slices.Clone(new)})
		cut := func(ls []string) string {
			var b strings.Builder
			for _, l := range ls {
				l, _, _ = strings.Cut(l, "#")
				b.WriteString(strings.TrimSpace(l) + "\n")
			}
			return b.String()
		}
		return path == "m.py" && cut(old) == cut(new)
	}
	hs, err := ReadLineHistoriesCosmetic(context.Background(), r.Dir, []string{"m.py"}, 1<<20, uncomment)
	if err != nil {
		t.Fatal(err)
	}
	h := hs["m.py"]
	for i, want := range []int64{day(0).Unix(), day(5).Unix(), day(9).Unix()} {
		if got, _, ok, _ := h.LastTouchFiltered(spans[i][0], spans[i][1], nil, true); !ok || got != want {
			t.Errorf("f%d lines %v: %d %v, want %d", i, spans[i], got, ok, want)
		}
	}
	if got, _, _ := h.LastTouch(spans[1][0], spans[1][1]); got != day(9).Unix() {
		t.Errorf("f1 without passing cosmetic hunks: %d, want day 9", got)
	}
	var added []string
	for _, s := range seen {
		added = append(added, s[1]...)
	}
	if !slices.Contains(added, "    x = 1  # one") {
		t.Errorf("Cosmetic never saw the added line: %q", seen)
	}
}

// f1Changed commits three functions on day 0 and a change of f1's body on
// day 5: the history the line-history tests build on.
func f1Changed(t *testing.T) (*gittest.Repo, [][]string) {
	t.Helper()
	if gitBinary == "" {
		t.Skip("no git command")
	}
	r := gittest.Init(t, t.TempDir())
	body := [][]string{{"return 0"}, {"return 1"}, {"return 2"}}
	text, _ := funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(0))
	body[1] = []string{"x = 1", "return x"}
	text, _ = funcs(body)
	r.Change(map[string]string{"m.py": text}, "ann", day(5))
	return r, body
}
