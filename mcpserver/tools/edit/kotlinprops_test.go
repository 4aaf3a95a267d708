package edit

import "testing"

// A Kotlin property override removed while an interface or abstract base
// still declares it without a value breaks the class (kotlinpoet's
// TypeAliasSpec without `override val kdoc`, while its Builder keeps its
// own); one a base gives a value, or no base declares, does not.
func TestVerifyKotlinPropertyRemoved(t *testing.T) {
	t.Parallel()
	p := "src/main/kotlin/a/TypeAliasSpec.kt"
	files := map[string]string{
		"src/main/kotlin/a/Documentable.kt": "package a\n\npublic interface Documentable {\n  public val kdoc: String\n\n  public interface Builder {\n    public val kdoc: StringBuilder\n  }\n}\n",
		"src/main/kotlin/a/Named.kt":        "package a\n\npublic abstract class Named {\n  public abstract val name: String\n  public open val tag: String = \"t\"\n}\n",
		p:                                   "package a\n\npublic class TypeAliasSpec(builder: String) : Named(), Documentable {\n  override val kdoc: String = builder\n  override val name: String = builder\n  override val tag: String = \"u\"\n  public val extra: Int = 1\n\n  fun emit(): String = builder\n\n  public class Builder : Documentable.Builder {\n    override val kdoc: StringBuilder = StringBuilder()\n  }\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"an interface's property", p, "  override val kdoc: String = builder\n", "", []string{p + ":3:broken"}},
		{"an abstract class's abstract property", p, "  override val name: String = builder\n", "", []string{p + ":3:broken"}},
		{"a property the base gives a value", p, "  override val tag: String = \"u\"\n", "", nil},
		{"the class's own property", p, "  public val extra: Int = 1\n", "", nil},
	})
}

// An interface the class implements by delegation (`Documentable by
// doc`) is answered by the delegate.
func TestVerifyKotlinDelegatedPropertyRemoved(t *testing.T) {
	t.Parallel()
	p := "src/main/kotlin/a/Spec.kt"
	files := map[string]string{
		"src/main/kotlin/a/Documentable.kt": "package a\n\npublic interface Documentable {\n  public val kdoc: String\n}\n",
		p:                                   "package a\n\npublic class Spec(doc: Documentable) : Documentable by doc {\n  override val kdoc: String = \"x\"\n}\n",
	}
	runContractCases(t, files, []contractCase{
		{"delegated", p, "  override val kdoc: String = \"x\"\n", "", nil},
	})
}

func TestKotlinPropertyIn(t *testing.T) {
	for _, c := range []struct {
		decl, owner, name string
		want              int
	}{
		{"interface D {\n  val kdoc: String\n}", "D", "kdoc", propAbstract},
		{"interface D {\n  val kdoc: String\n    get() = \"x\"\n}", "D", "kdoc", propValue},
		{"interface D {\n  val kdoc: String get() = \"\"\n}", "D", "kdoc", propValue},
		{"abstract class A {\n  abstract val n: Int\n}", "A", "n", propAbstract},
		{"abstract class A {\n  open val n: Int = 1\n}", "A", "n", propValue},
		{"abstract class A {\n  val m: Lazy<Int> by lazy { 1 }\n}", "A", "m", propValue},
		{"abstract class A(val n: Int)", "A", "n", propValue},
		{"interface D {\n  fun f()\n}", "D", "kdoc", propNone},
	} {
		if got := kotlinPropertyIn(c.decl, c.owner, c.name); got != c.want {
			t.Errorf("%q %s: %d, want %d", c.decl, c.name, got, c.want)
		}
	}
}
