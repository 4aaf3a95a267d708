package deptruth

import (
	"context"
	"errors"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// javaFixture: inheritance, an import, a static call, a constructor, an
// inherited method, overloads javac tells apart by argument type, and a
// third-party type that cannot attribute (no classpath).
var javaFixture = map[string]string{
	"src/p/Base.java": `
package p;
public class Base { public void hello() {} }
`,
	"src/p/Writer.java": `
package p;
public class Writer {
  public Writer() {}
  public Writer emit(String s) { return this; }
  public Writer emit(String s, Object... args) { return this; }
  public Writer emit(int n) { return this; }
}
`,
	"src/q/Use.java": `
package q;
import p.Base;
import p.Writer;
import org.missing.Lib;
public class Use extends Base {
  void run(Lib lib) {
    Writer w = new Writer();
    w.emit("x");
    w.emit(3);
    hello();
    lib.go();
    Runnable r = () -> w.emit("y", 1);
  }
}
`,
	"src/q/Alone.java": `
package q;
class Alone {}
`,
	"module-info.java": "module m {}\n",
}

func javaAvailable(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java not installed: the Java ground truth (javadeps.java) cannot run")
	}
}

func TestJavaTruth(t *testing.T) {
	javaAvailable(t)
	root, _ := writeTree(t, javaFixture)
	gitInit(t, root)
	o := Options{ScriptsDir: scriptsDir(t)}
	tr, err := JavaTruth(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"src/q/Use.java": {"src/p/Base.java", "src/p/Writer.java"}}
	if d := cmp.Diff(want, tr.Deps); d != "" {
		t.Errorf("deps (-want +got):\n%s", d)
	}
	if _, ok := tr.Skipped["module-info.java"]; !ok {
		t.Errorf("module-info.java should be skipped: %v", tr.Skipped)
	}
	cg, err := JavaCallTruth(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := map[[2]string]bool{
		{"src/q/Use.java::Use::run", "src/p/Writer.java::Writer::Writer"}:                 true,
		{"src/q/Use.java::Use::run", "src/p/Writer.java::Writer::emit"}:                   true,
		{"src/q/Use.java::Use::run", "src/p/Writer.java::Writer::emit(int)"}:              true,
		{"src/q/Use.java::Use::run", "src/p/Writer.java::Writer::emit(String,Object...)"}: true,
		{"src/q/Use.java::Use::run", "src/p/Base.java::Base::hello"}:                      true,
	}
	if d := cmp.Diff(wantCalls, cg.Calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	// The IDs are m1nd's: every declared method is a node of its ingest.
	m, err := M1ndCallsOf(context.Background(), root, ".java")
	if err != nil {
		t.Fatal(err)
	}
	for f := range cg.Funcs {
		if !m.Funcs[f] {
			t.Errorf("javac's %s is no m1nd function node (m1nd has %v)", f, m.Funcs)
		}
	}
}

func TestJavaTruthWithoutJava(t *testing.T) {
	_, err := JavaTruth(context.Background(), t.TempDir(), Options{Java: "no-such-java-launcher", ScriptsDir: scriptsDir(t)})
	if !errors.Is(err, ErrNoJava) {
		t.Errorf("err = %v, want ErrNoJava", err)
	}
}

// gitInit makes root a git work tree with every file tracked (the truth
// reads git ls-files).
func gitInit(t *testing.T, root string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}
