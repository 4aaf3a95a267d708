package resolve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// kotlinWriter declares a class with same-arity overloads and the
// functions whose declared results type the receivers of kotlinUse.
const kotlinWriter = `package demo

class CodeWriter {
    fun emitCode(s: String) = this
    fun emitCode(b: CodeBlock) = this
    fun emitCode(s: String, vararg args: Any?) = this
    fun <T> put(v: T) = this
    fun put(b: CodeBlock) = this
    fun close() {}
    fun tag(k: Int) = this
    fun tag(k: Int, v: Any?) = this
    fun copy(nullable: Boolean = false, size: Int = 0) = this
    fun copy(nullable: Boolean = false, size: Int = 0, tags: Map<String, Any> = emptyMap()) = this
    fun lambda(receiver: Int? = null, parameters: List<CodeBlock> = emptyList(), returns: CodeBlock) = this
    fun lambda(receiver: Int? = null, vararg parameters: CodeBlock, returns: CodeBlock) = this
}

fun <T> CodeWriter.tag(): T? = null

class CodeBlock {
    class Builder {
        fun add() {}
    }
    companion object {
        fun builder(): CodeBlock.Builder = Builder()
    }
}

class FunSpec {
    class Builder {
        fun add() {}
    }
}

fun writer(): CodeWriter = CodeWriter()

class Factory {
    companion object {
        fun create(): CodeWriter? = null
        fun of(s: String): CodeWriter? = null
        fun of(b: CodeBlock): CodeWriter? = null
    }
}
`

const kotlinUse = `package demo

class Use {
    private val lazyOut by lazy { CodeWriter() }

    fun run(out: CodeWriter, block: CodeBlock) {
        out.emitCode("get")
        out.emitCode(block)
        out.emitCode("%T", block)
        out.put(1)
        val w = writer()
        w.close()
        val f = Factory.create()
        f?.close()
        lazyOut.close()
        val g = other()
        g.close()
        val b = CodeBlock.builder()
        b.add()
        out.tag<Int>()
        out.tag(1)
        out.copy(nullable = true)
        log("x")
        Factory.of("y")
        out.lambda(parameters = arrayOf(block), returns = block)
        out.lambda(parameters = listOf(block), returns = block)
    }

    fun log(s: String) {}
    fun log(b: CodeBlock) {}

    fun other() = CodeBlock()
}

interface Tagged {
    fun mark(a: Long): Int = mark(a.toString())
    fun mark(s: String): Int = 0
    interface Builder {
        fun mark(a: Long, v: Any?)
        fun mark(s: String, v: Any?)
    }
}
`

// TestKotlinCallResultsAndOverloads: `val w = writer()` (and `by lazy {
// CodeWriter() }`, `Factory.create()`) types w by the declared result of the
// one function it calls, so w.close() binds CodeWriter's; before, w was
// a receiver of unknown type and close bound nothing. Same-arity
// overloads through a typed receiver are told apart by literal
// arguments (a string is no CodeBlock) and all kept when nothing tells
// them apart (a variable argument, a type parameter). A result type
// whose name several classes declare (nested Builders) types nothing.
func TestKotlinCallResultsAndOverloads(t *testing.T) {
	var results []*extract.Result
	for _, f := range [][2]string{{"demo/CodeWriter.kt", kotlinWriter}, {"demo/Use.kt", kotlinUse}} {
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
		o := ix.Resolve(Source{ID: e.Source, File: results[1].Path}, name, e.Relation, e.Hint)
		var ids []string
		for _, id := range append([]string{o.Target}, o.Also...) {
			if id != "" {
				ids = append(ids, strings.TrimPrefix(id, "file::demo/CodeWriter.kt::"))
			}
		}
		got[fmt.Sprintf("%s@%d", name, e.Line)] = ids
	}
	want := map[string][]string{
		// "get": the String overloads, not the CodeBlock one (the
		// vararg one takes one argument too; Kotlin prefers the other,
		// which no rule here reads).
		"emitCode@7": {"CodeWriter::emitCode", "CodeWriter::emitCode(String,Any?)"},
		// A variable of a declared type: a CodeBlock is no String.
		"emitCode@8":  {"CodeWriter::emitCode(CodeBlock)"},
		"emitCode@9":  {"CodeWriter::emitCode(String,Any?)"}, // by count
		"put@10":      {"CodeWriter::put"},                   // T takes 1; CodeBlock does not
		"close@12":    {"CodeWriter::close"},                 // val w = writer()
		"close@14":    {"CodeWriter::close"},                 // Factory.create(): CodeWriter?
		"close@15":    {"CodeWriter::close"},                 // by lazy { CodeWriter() }
		"close@17":    nil,                                   // other(): a CodeBlock, no close
		"writer@11":   {"writer"},
		"create@13":   {"Factory::create"},
		"other@16":    {"file::demo/Use.kt::Use::other"},
		"CodeBlock@6": nil,
		// Builder names two classes (read by its last name): no type.
		"add@19": nil,
		// No tag of CodeWriter takes no argument: the top-level
		// extension (another file's: the untyped rule binds none).
		"tag@20": nil,
		"tag@21": {"CodeWriter::tag"},
		// Every parameter has a default: both copy take one argument
		// (the grammar puts a function's default beside its parameter,
		// which the arity once missed, and the tag rule dropped them).
		"copy@22": {"CodeWriter::copy", "CodeWriter::copy(Boolean,Int,Map)"},
		// A bare and a static call: literal arguments tell same-arity
		// overloads apart there too (a string is no CodeBlock).
		"log@23": {"file::demo/Use.kt::Use::log"},
		"of@24":  {"Factory::of"},
		// An array is no List; a vararg takes one by name.
		"lambda@25": {"CodeWriter::lambda(Int?,CodeBlock,CodeBlock)"},
		"lambda@26": {"CodeWriter::lambda", "CodeWriter::lambda(Int?,CodeBlock,CodeBlock)"},
		// Arguments of no evident kind still count for coverage: the
		// Builder's two-parameter marks leave v without a value.
		"mark@36": {"file::demo/Use.kt::Tagged::mark", "file::demo/Use.kt::Tagged::mark(String)"},
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	for k, v := range want {
		if v == nil {
			if _, ok := got[k]; !ok {
				got[k] = nil
			}
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bound (-want +got):\n%s", d)
	}
}
