package resolve

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestKotlinTypedVariableExtension: `body.asExpressionBody()` with body a
// CodeBlock binds CodeBlock's method when it has one; when it has none
// the call is an extension function (kotlinpoet's `private fun
// CodeBlock.asExpressionBody()` in FunSpec.kt), owned by no class, and
// the untyped rule (the calling file's one method) still binds it. A
// static call Foo.m() and this.m() keep the typed rule alone.
func TestKotlinTypedVariableExtension(t *testing.T) {
	spec := "src/p/FunSpec.kt"
	ix := New([]*extract.Result{
		file(spec, "kotlin", "class FunSpec", "func FunSpec::emit", "func FunSpec::asExpressionBody"),
		file("src/p/CodeBlock.kt", "kotlin", "class CodeBlock", "func CodeBlock::isEmpty"),
	}, nil)
	run(t, ix, []rcase{
		{name: "the type's own method", from: spec, srcEnt: "FunSpec::emit", ref: "isEmpty",
			hint: extract.RefHint{Receiver: "body", ReceiverType: "CodeBlock"}, want: "file::src/p/CodeBlock.kt::CodeBlock::isEmpty", status: Resolved},
		{name: "an extension of the file", from: spec, srcEnt: "FunSpec::emit", ref: "asExpressionBody",
			hint: extract.RefHint{Receiver: "body", ReceiverType: "CodeBlock"}, want: "file::" + spec + "::FunSpec::asExpressionBody", status: Resolved},
		{name: "a static call keeps the typed rule", from: spec, srcEnt: "FunSpec::emit", ref: "asExpressionBody",
			hint: extract.RefHint{Receiver: "CodeBlock", ReceiverType: "CodeBlock"}, want: "", status: Unresolved},
		{name: "this keeps the typed rule", from: "src/p/CodeBlock.kt", srcEnt: "CodeBlock::isEmpty", ref: "emit",
			hint: extract.RefHint{Receiver: "this", ReceiverType: "CodeBlock"}, want: "", status: Unresolved},
	})
}
