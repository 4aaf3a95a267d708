package extract

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	tsr "github.com/r-lib/tree-sitter-r/bindings/go"
	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsmake "github.com/tree-sitter-grammars/tree-sitter-make/bindings/go"
	tstoml "github.com/tree-sitter-grammars/tree-sitter-toml/bindings/go"
	tsyaml "github.com/tree-sitter-grammars/tree-sitter-yaml/bindings/go"
	tszig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tscss "github.com/tree-sitter/tree-sitter-css/bindings/go"
	tshaskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"
	tshtml "github.com/tree-sitter/tree-sitter-html/bindings/go"
	tsjson "github.com/tree-sitter/tree-sitter-json/bindings/go"
	tsjulia "github.com/tree-sitter/tree-sitter-julia/bindings/go"
	tsocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
)

// Grammars the module proxy does not serve with Go bindings (checked with
// pinned tags; the proxy refuses version lists): Swift
// (alex-pinkus/tree-sitter-swift publishes its parser only in release
// artefacts), Dart (UserNobody14/tree-sitter-dart, no tagged module),
// Elixir (elixir-lang/tree-sitter-elixir declares the module path
// github.com/tree-sitter/tree-sitter-elixir, which does not exist, so it
// cannot be required), SQL (DerekStride/tree-sitter-sql ships bindings
// without the generated parser.c) and Dockerfile (camdencheek, no go.mod).
// Those files get the generic extractor.

var (
	fn       = defKind{graph.Function, KindFunction}
	class    = defKind{graph.Class, KindClass}
	strct    = defKind{graph.Struct, KindStruct}
	iface    = defKind{graph.Type, KindInterface}
	trait    = defKind{graph.Type, KindTrait}
	enum     = defKind{graph.Enum, KindEnum}
	alias    = defKind{graph.Type, KindTypeAlias}
	module   = defKind{graph.Module, KindModule}
	constant = defKind{graph.Reference, KindConstant}
	macro    = defKind{graph.Function, "macro"}
	section  = defKind{graph.Module, KindSection}
	key      = defKind{graph.Reference, "key"}
)

// cDefs are shared by C and C++: functions and prototypes are found by
// drilling through declarators to the name.
var cDefs = []defRule{
	{kind: "function_definition", defKind: fn, drill: "declarator", must: "function_declarator"},
	{kind: "declaration", defKind: fn, drill: "declarator", must: "function_declarator", decl: true},
	{kind: "struct_specifier", defKind: strct, nameField: "name", needField: "body", classLike: true},
	{kind: "union_specifier", defKind: defKind{graph.Struct, KindStruct}, nameField: "name", needField: "body", classLike: true},
	{kind: "enum_specifier", defKind: enum, nameField: "name", needField: "body"},
	{kind: "type_definition", defKind: alias, drill: "declarator", flat: true},
	{kind: "preproc_function_def", defKind: macro, nameField: "name"},
	{kind: "preproc_def", defKind: constant, nameField: "name"},
}

var tableLangs = []*tableLang{
	{
		name: "c", exts: []string{".c", ".h"}, ptr: tsc.Language,
		defs:        cDefs,
		calls:       []callRule{{kind: "call_expression", field: "function"}},
		imports:     []importRule{{kind: "preproc_include", field: "path"}},
		stringKinds: []string{"string_literal", "system_lib_string"},
		typeRefs:    &typeRefRule{fields: []string{"type"}, idents: []string{"type_identifier"}},
	},
	{
		name: "cpp", exts: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"},
		ptr: tscpp.Language,
		defs: append([]defRule{
			// Listed before cDefs: the first rule for a kind wins.
			{kind: "class_specifier", defKind: class, nameField: "name", needField: "body", classLike: true, bases: []string{"base_class_clause"}},
			{kind: "struct_specifier", defKind: strct, nameField: "name", needField: "body", classLike: true, bases: []string{"base_class_clause"}},
			{kind: "field_declaration", defKind: fn, drill: "declarator", must: "function_declarator", decl: true},
			{kind: "namespace_definition", defKind: module, nameField: "name", whole: true},
			{kind: "alias_declaration", defKind: alias, nameField: "name"},
			{kind: "concept_definition", defKind: alias, nameField: "name"},
		}, cDefs...),
		calls:       []callRule{{kind: "call_expression", field: "function", args: "arguments"}},
		imports:     []importRule{{kind: "preproc_include", field: "path"}},
		stringKinds: []string{"string_literal", "system_lib_string", "raw_string_literal"},
		selfNames:   []string{"this"},
		overloads:   &overloadRule{lists: []string{"parameter_list"}, params: []string{"parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration"}},
		typeRefs:    &typeRefRule{fields: []string{"type"}, skip: []string{"scope"}, idents: []string{"type_identifier"}},
	},
	{
		name: "csharp", exts: []string{".cs"}, ptr: tscsharp.Language,
		defs: []defRule{
			{kind: "namespace_declaration", defKind: module, nameField: "name", whole: true},
			{kind: "class_declaration", defKind: class, nameField: "name", classLike: true, bases: []string{"base_list"}},
			{kind: "struct_declaration", defKind: strct, nameField: "name", classLike: true, bases: []string{"base_list"}},
			{kind: "record_declaration", defKind: class, nameField: "name", classLike: true, bases: []string{"base_list"}},
			{kind: "interface_declaration", defKind: iface, nameField: "name", classLike: true, bases: []string{"base_list"}},
			{kind: "enum_declaration", defKind: enum, nameField: "name"},
			{kind: "delegate_declaration", defKind: alias, nameField: "name"},
			{kind: "method_declaration", defKind: fn, nameField: "name"},
			{kind: "constructor_declaration", defKind: fn, nameField: "name"},
			{kind: "destructor_declaration", defKind: fn, nameField: "name"},
			{kind: "local_function_statement", defKind: fn, nameField: "name"},
		},
		calls: []callRule{
			{kind: "invocation_expression", field: "function", args: "arguments"},
			{kind: "object_creation_expression", field: "type", args: "arguments"},
		},
		imports:      []importRule{{kind: "using_directive", trim: []string{"global", "using", "static"}}},
		pkgs:         []pkgRule{{kind: "file_scoped_namespace_declaration", field: "name"}},
		baseWrap:     []string{"primary_constructor_base_type"},
		ifacePrefixI: true,
		selfNames:    []string{"this"},
		overloads:    &overloadRule{lists: []string{"parameter_list"}, params: []string{"parameter"}},
		typeRefs: &typeRefRule{fields: []string{"type", "returns"}, skip: []string{"qualifier", "alias"}, idents: []string{"identifier"},
			lists: []string{"type_argument_list"}, ignore: setOf("var", "dynamic", "nint", "nuint", "unmanaged", "notnull"), tParams: true},
	},
	{
		name: "ruby", exts: []string{".rb", ".rake", ".gemspec"}, baseNames: []string{"Rakefile", "Gemfile"},
		ptr: tsruby.Language,
		defs: []defRule{
			{kind: "class", defKind: class, nameField: "name", classLike: true, bases: []string{"superclass"}},
			{kind: "module", defKind: module, nameField: "name", classLike: true},
			{kind: "method", defKind: fn, nameField: "name"},
			{kind: "singleton_method", defKind: fn, nameField: "name"},
		},
		calls:       []callRule{{kind: "call", field: "method", recv: "receiver"}},
		imports:     []importRule{{kind: "call", calls: []string{"require", "require_relative", "load"}, callee: "method"}},
		stringKinds: []string{"string"},
		selfNames:   []string{"self"},
		ignoreCalls: setOf("puts", "print", "p", "pp", "require", "require_relative", "attr_accessor",
			"attr_reader", "attr_writer", "include", "extend", "prepend", "raise", "private", "protected",
			"public", "lambda", "proc", "loop", "module_function", "private_constant", "freeze", "to_s",
			"each", "map", "select", "nil?", "is_a?", "respond_to?", "send", "new", "class"),
		hook:      rubyHook,
		basePaths: true,
	},
	{
		name: "php", exts: []string{".php", ".phtml"}, ptr: tsphp.LanguagePHP,
		defs: []defRule{
			{kind: "namespace_definition", defKind: module, nameField: "name", whole: true},
			{kind: "class_declaration", defKind: class, nameField: "name", classLike: true, bases: []string{"base_clause"}, impls: []string{"class_interface_clause"}, mixins: []string{"use_declaration"}},
			{kind: "interface_declaration", defKind: iface, nameField: "name", classLike: true, bases: []string{"base_clause"}},
			{kind: "trait_declaration", defKind: trait, nameField: "name", classLike: true, mixins: []string{"use_declaration"}},
			{kind: "enum_declaration", defKind: enum, nameField: "name", classLike: true, impls: []string{"class_interface_clause"}, mixins: []string{"use_declaration"}},
			{kind: "function_definition", defKind: fn, nameField: "name"},
			{kind: "method_declaration", defKind: fn, nameField: "name"},
		},
		calls: []callRule{
			{kind: "function_call_expression", field: "function"},
			{kind: "member_call_expression", field: "name", recv: "object"},
			{kind: "nullsafe_member_call_expression", field: "name", recv: "object"},
			{kind: "scoped_call_expression", field: "name", recv: "scope"},
			{kind: "object_creation_expression"},
		},
		imports: []importRule{
			{kind: "namespace_use_declaration", trim: []string{"use", "function", "const"}},
			{kind: "include_expression", trim: []string{"include"}},
			{kind: "include_once_expression", trim: []string{"include_once"}},
			{kind: "require_expression", trim: []string{"require"}},
			{kind: "require_once_expression", trim: []string{"require_once"}},
		},
		pkgs:        []pkgRule{{kind: "namespace_definition", field: "name"}},
		stringKinds: []string{"string", "encapsed_string"},
		selfNames:   []string{"$this", "self", "static"},
		typeRefs: &typeRefRule{fields: []string{"type", "return_type"}, skip: []string{"prefix"}, idents: []string{"name"},
			ignore: setOf("self", "static", "parent", "mixed", "callable", "iterable", "object", "array", "never")},
		ignoreCalls: setOf("isset", "empty", "count", "array_map", "array_filter", "in_array", "is_array",
			"strlen", "sprintf", "implode", "explode", "array_keys", "array_merge", "json_encode", "json_decode"),
	},
	{
		name: "bash", exts: []string{".sh", ".bash", ".zsh", ".ksh", ".bats"},
		baseNames:   []string{".bashrc", ".bash_profile", ".zshrc", ".profile", ".bash_aliases"},
		ptr:         tsbash.Language,
		defs:        []defRule{{kind: "function_definition", defKind: fn, nameField: "name"}},
		calls:       []callRule{{kind: "command", field: "name", onlyLocal: true}},
		imports:     []importRule{{kind: "command", calls: []string{"source", "."}, callee: "name"}},
		stringKinds: []string{"string", "raw_string", "word"},
	},
	{
		name: "scala", exts: []string{".scala", ".sc"}, ptr: tsscala.Language,
		defs: []defRule{
			{kind: "class_definition", defKind: class, nameField: "name", classLike: true, bases: []string{"extends_clause"}},
			{kind: "object_definition", defKind: class, nameField: "name", classLike: true, bases: []string{"extends_clause"}},
			{kind: "trait_definition", defKind: trait, nameField: "name", classLike: true, bases: []string{"extends_clause"}},
			{kind: "enum_definition", defKind: enum, nameField: "name", classLike: true, bases: []string{"extends_clause"}},
			{kind: "function_definition", defKind: fn, nameField: "name"},
			{kind: "function_declaration", defKind: fn, nameField: "name"},
			{kind: "type_definition", defKind: alias, nameField: "name"},
		},
		calls: []callRule{
			{kind: "call_expression", field: "function", args: "arguments"},
			{kind: "instance_expression"},
		},
		imports:   []importRule{{kind: "import_declaration", trim: []string{"import"}}},
		pkgs:      []pkgRule{{kind: "package_clause", field: "name"}},
		selfNames: []string{"this"},
		overloads: &overloadRule{lists: []string{"parameters"}, params: []string{"parameter"}},
		// A parameter's, a val's, a result's type, a type argument
		// anywhere (List[Foo](), extends Base[Foo]); a qualified a.b.Foo
		// names Foo (its qualifier is identifiers, not type names).
		typeRefs: &typeRefRule{fields: []string{"type", "return_type"}, idents: []string{"type_identifier"},
			lists: []string{"type_arguments"}, ignore: setOf("Any", "AnyRef", "AnyVal", "Unit", "Nothing", "Null",
				"String", "Int", "Long", "Boolean", "Double", "Float", "Char", "Byte", "Short", "BigInt", "BigDecimal",
				"List", "Map", "Set", "Seq", "Option", "Some", "Vector", "Array", "Either", "Iterable", "Iterator",
				"IndexedSeq", "Future", "Throwable", "Exception", "Function", "PartialFunction")},
	},
	{
		name: "kotlin", exts: []string{".kt", ".kts"}, ptr: tskotlin.Language,
		defs: []defRule{
			{kind: "class_declaration", defKind: class, nameField: "name", classLike: true, bases: []string{"delegation_specifiers"},
				byKeyword: map[string]defKind{"interface": iface, "enum": enum}},
			{kind: "object_declaration", defKind: class, nameField: "name", classLike: true, bases: []string{"delegation_specifiers"}},
			{kind: "companion_object", defKind: class, nameField: "name", classLike: true},
			{kind: "function_declaration", defKind: fn, nameField: "name"},
			{kind: "type_alias", defKind: alias, nameField: "type"},
		},
		calls:       []callRule{{kind: "call_expression", argsFn: kotlinArgs, kindsFn: kotlinArgKinds}},
		imports:     []importRule{{kind: "import", trim: []string{"import"}}},
		pkgs:        []pkgRule{{kind: "package_header"}},
		baseWrap:    []string{"delegation_specifier", "constructor_invocation"},
		selfNames:   []string{"this"},
		overloads:   &overloadRule{lists: []string{"function_value_parameters", "class_parameters"}, params: []string{"parameter", "class_parameter"}},
		hook:        kotlinHook,
		repair:      kotlinJoinCtorLines,
		importHints: true,
		typeRefs: &typeRefRule{lists: []string{"user_type"}, skipUnder: []string{"delegation_specifier", "constructor_invocation"},
			idents: []string{"identifier"}, lastIdent: true, ignore: setOf("Any", "Unit", "Nothing", "String", "Int", "Long", "Boolean",
				"Double", "Float", "Char", "Byte", "Short", "List", "Map", "Set", "MutableList", "MutableMap", "MutableSet", "Array", "Sequence")},
	},
	{
		name: "lua", exts: []string{".lua"}, ptr: tslua.Language,
		defs:        []defRule{{kind: "function_declaration", defKind: fn, nameField: "name"}},
		calls:       []callRule{{kind: "function_call", field: "name"}},
		imports:     []importRule{{kind: "function_call", calls: []string{"require"}, callee: "name"}},
		stringKinds: []string{"string"},
		selfNames:   []string{"self"},
		ignoreCalls: setOf("print", "pairs", "ipairs", "type", "tostring", "tonumber", "error", "assert", "pcall", "require", "setmetatable", "getmetatable"),
	},
	{
		name: "haskell", exts: []string{".hs"}, ptr: tshaskell.Language,
		defs: []defRule{
			{kind: "function", defKind: fn, nameField: "name", topOnly: true},
			{kind: "bind", defKind: fn, nameField: "name", topOnly: true},
			{kind: "data_type", defKind: enum, nameField: "name"},
			{kind: "newtype", defKind: alias, nameField: "name"},
			{kind: "type_synomym", defKind: alias, nameField: "name"}, // sic: the grammar's spelling
			{kind: "class", defKind: trait, nameField: "name", classLike: true},
		},
		calls:   []callRule{{kind: "apply", field: "function"}},
		imports: []importRule{{kind: "import", field: "module"}},
		pkgs:    []pkgRule{{kind: "header", field: "module"}},
	},
	{
		name: "ocaml", exts: []string{".ml"}, ptr: tsocaml.LanguageOCaml,
		defs:    ocamlDefs,
		calls:   []callRule{{kind: "application_expression", field: "function"}},
		imports: []importRule{{kind: "open_module", trim: []string{"open!", "open"}}},
	},
	{
		name: "ocaml", exts: []string{".mli"}, ptr: tsocaml.LanguageOCamlInterface,
		defs: append([]defRule{
			{kind: "value_specification", defKind: fn, nameKinds: []string{"value_name"}},
			{kind: "module_type_definition", defKind: module, nameField: "name"},
		}, ocamlDefs...),
		imports: []importRule{{kind: "open_module", trim: []string{"open!", "open"}}},
	},
	{
		name: "julia", exts: []string{".jl"}, ptr: tsjulia.Language,
		defs: []defRule{
			{kind: "module_definition", defKind: module, nameField: "name"},
			{kind: "function_definition", defKind: fn, nameKinds: []string{"call_expression", "identifier"}, deep: true},
			{kind: "macro_definition", defKind: macro, nameKinds: []string{"call_expression", "identifier"}, deep: true},
			{kind: "struct_definition", defKind: strct, nameKinds: []string{"type_head"}},
			{kind: "abstract_definition", defKind: alias, nameKinds: []string{"type_head"}},
			// Short form: f(x) = … .
			{kind: "assignment", defKind: fn, nameKinds: []string{"call_expression"}, nameFirst: true, topOnly: true},
		},
		calls: []callRule{{kind: "call_expression"}, {kind: "broadcast_call_expression"}},
		imports: []importRule{
			{kind: "import_statement", trim: []string{"import"}},
			{kind: "using_statement", trim: []string{"using"}},
		},
		ignoreCalls: setOf("println", "print", "length", "push!", "error", "string", "typeof", "isa", "collect", "zeros", "ones", "size"),
	},
	{
		name: "zig", exts: []string{".zig"}, ptr: tszig.Language,
		defs: []defRule{
			{kind: "function_declaration", defKind: fn, nameField: "name"},
			{kind: "test_declaration", defKind: defKind{graph.Function, KindTest}, nameKinds: []string{"string", "identifier"}},
			{kind: "variable_declaration", defKind: constant, nameKinds: []string{"identifier"}, topOnly: true, classLike: true,
				byValue: map[string]defKind{
					"struct_declaration": strct, "union_declaration": strct, "enum_declaration": enum,
					"opaque_declaration": alias, "error_set_declaration": enum,
				}},
		},
		calls:       []callRule{{kind: "call_expression", field: "function"}},
		imports:     []importRule{{kind: "builtin_function", calls: []string{"@import"}}},
		stringKinds: []string{"string"},
	},
	{
		name: "css", exts: []string{".css"}, ptr: tscss.Language,
		defs: []defRule{
			{kind: "rule_set", defKind: defKind{graph.Reference, "selector"}, nameKinds: []string{"selectors"}, leaf: true},
			{kind: "keyframes_statement", defKind: defKind{graph.Reference, "keyframes"}, nameKinds: []string{"keyframes_name"}, leaf: true},
		},
		imports:   []importRule{{kind: "import_statement", trim: []string{"@import", "url"}}},
		noQualify: true,
	},
	{
		name: "yaml", exts: []string{".yaml", ".yml"}, ptr: tsyaml.Language,
		defs:        []defRule{{kind: "block_mapping_pair", defKind: key, nameField: "key", maxNest: 2}},
		stringKinds: []string{"double_quote_scalar", "single_quote_scalar"},
		noQualify:   true,
	},
	{
		name: "toml", exts: []string{".toml"}, ptr: tstoml.Language,
		defs: []defRule{
			{kind: "table", defKind: section, nameKinds: []string{"bare_key", "dotted_key", "quoted_key"}},
			{kind: "table_array_element", defKind: section, nameKinds: []string{"bare_key", "dotted_key", "quoted_key"}},
			{kind: "pair", defKind: key, nameKinds: []string{"bare_key", "dotted_key", "quoted_key"}, maxNest: 2, leaf: true},
		},
		stringKinds: []string{"quoted_key"},
		noQualify:   true,
	},
	{
		name: "json", exts: []string{".json", ".jsonc", ".json5"}, ptr: tsjson.Language,
		defs:        []defRule{{kind: "pair", defKind: key, nameField: "key", maxNest: 2}},
		stringKinds: []string{"string"},
		noQualify:   true,
	},
	{
		name: "html", exts: []string{".html", ".htm", ".xhtml"}, ptr: tshtml.Language,
		hook: htmlHook,
	},
	{
		name: "r", exts: []string{".r"}, ptr: tsr.Language,
		defs: []defRule{
			{kind: "binary_operator", defKind: fn, nameField: "lhs", valueOnly: true, topOnly: true,
				byValue: map[string]defKind{"function_definition": fn}},
		},
		calls: []callRule{{kind: "call", field: "function"}},
		imports: []importRule{{kind: "call", callee: "function",
			calls: []string{"library", "require", "source", "requireNamespace", "sys.source"}}},
		stringKinds: []string{"string"},
		ignoreCalls: setOf("c", "list", "paste", "paste0", "print", "length", "stop", "function", "is.null", "return", "library", "require"),
	},
	{
		name: "make", exts: []string{".mk", ".mak"}, baseNames: []string{"Makefile", "makefile", "GNUmakefile"},
		ptr: tsmake.Language,
		defs: []defRule{
			{kind: "rule", defKind: defKind{graph.Function, "target"}, nameKinds: []string{"targets"}, leaf: true, firstWord: true},
			{kind: "variable_assignment", defKind: constant, nameField: "name", leaf: true},
			{kind: "define_directive", defKind: macro, nameField: "name", leaf: true},
		},
		imports:   []importRule{{kind: "include_directive", field: "filenames"}},
		noQualify: true,
	},
}

var ocamlDefs = []defRule{
	{kind: "let_binding", defKind: fn, nameField: "pattern", topOnly: true},
	{kind: "module_binding", defKind: module, nameField: "name"},
	{kind: "type_binding", defKind: alias, nameField: "name"},
	{kind: "class_binding", defKind: class, nameField: "name", classLike: true},
	{kind: "method_definition", defKind: fn, nameField: "name"},
}

// htmlHook turns <script src> and <link href> into imports; everything else
// in HTML is content.
func htmlHook(x *tableExtract, i int32, s *tScope) bool {
	t := x.t
	switch t.g.kindName(t.n[i].kind) {
	case "start_tag", "self_closing_tag":
	default:
		return false
	}
	var tag string
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "tag_name":
			tag = strings.ToLower(t.text(c))
		case "attribute":
			var name, val string
			for a := t.first(c); a >= 0; a = t.n[a].next {
				switch t.g.kindName(t.n[a].kind) {
				case "attribute_name":
					name = strings.ToLower(t.text(a))
				case "quoted_attribute_value", "attribute_value":
					val = strings.Trim(t.text(a), `"'`)
				}
			}
			if val == "" || strings.Contains(val, "://") || strings.HasPrefix(val, "//") || strings.HasPrefix(val, "data:") {
				continue
			}
			if (tag == "script" && name == "src") || (tag == "link" && name == "href") {
				line := t.line(c)
				x.b.imp(Import{Module: val, Line: line})
				x.b.ref(x.b.fileID, tableModuleStem(val), RelImports, line, RefHint{Module: val})
			}
		}
	}
	return true
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// tableExtractorsList builds the table extractors once.
func tableExtractorsList() []Extractor {
	out := make([]Extractor, 0, len(tableLangs))
	for _, l := range tableLangs {
		out = append(out, newTableExtractor(l))
	}
	return out
}
