package resolve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

const kotlinBase = `package demo

class CodeWriter {
    fun emit(s: String) = this
    fun close() {}
}

class Other {
    fun emit(s: String) = this
}

interface Holder {
    val out: CodeWriter
}

abstract class Base(val writer: CodeWriter) : Holder {
    protected val other: Other = Other()
}

class Builder(val writer: Other)
class Spec { class Builder(val writer: CodeWriter) }
`

const kotlinSub = `package demo

class Sub(w: CodeWriter) : Base(w) {
    fun run() {
        writer.emit("a")
        other.emit("b")
        out.close()
        this.writer.close()
        nowhere.emit("c")
        super.toString()
    }

    fun emit(s: String) = this
}

class Plain {
    fun run() {
        writer.close()
    }
}

class Nested : Builder(Other()) {
    fun run() {
        writer.emit("d")
    }
}
`

// TestKotlinInheritedReceiver: `writer.emit()` in a class whose base
// declares `val writer: CodeWriter` (in another file, a class parameter,
// a property, an interface's abstract one) binds CodeWriter's emit;
// before, writer was a receiver of unknown type, and the untyped rule
// bound the calling file's one emit (Sub's own, wrong). A name no base
// declares, a class without bases, and a base whose name two classes
// bear (Builder) keep the untyped rule.
func TestKotlinInheritedReceiver(t *testing.T) {
	var results []*extract.Result
	for _, f := range [][2]string{{"demo/Base.kt", kotlinBase}, {"demo/Sub.kt", kotlinSub}} {
		r, err := extract.ExtractFile(f[0], []byte(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	ix := New(results, nil)
	got := map[string][]string{}
	for _, e := range results[1].Edges {
		name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
		if !ok || e.Relation != extract.RelCalls {
			continue
		}
		if e.Hint.Receiver == "super.super" || e.Hint.Receiver == "super.this" {
			t.Errorf("%s@%d: receiver %q: super and this are no properties", name, e.Line, e.Hint.Receiver)
		}
		o := ix.Resolve(Source{ID: e.Source, File: results[1].Path}, name, e.Relation, e.Hint)
		var ids []string
		for _, id := range append([]string{o.Target}, o.Also...) {
			if id != "" {
				ids = append(ids, strings.TrimPrefix(id, "file::demo/Base.kt::"))
			}
		}
		got[fmt.Sprintf("%s@%d", name, e.Line)] = ids
	}
	want := map[string][]string{
		"emit@5":  {"CodeWriter::emit"},  // Base(val writer: CodeWriter)
		"emit@6":  {"Other::emit"},       // protected val other: Other
		"close@7": {"CodeWriter::close"}, // Holder's val out
		"close@8": {"CodeWriter::close"}, // this.writer
		// No base declares nowhere: the untyped rule (the file's one emit).
		"emit@9":   {"file::demo/Sub.kt::Sub::emit"},
		"close@18": nil,                              // Plain has no base
		"emit@24":  {"file::demo/Sub.kt::Sub::emit"}, // two Builders: not guessed
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	for k, v := range want {
		if _, ok := got[k]; !ok && v == nil {
			got[k] = nil
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bound (-want +got):\n%s", d)
	}
}
