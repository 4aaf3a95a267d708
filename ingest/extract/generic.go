package extract

import (
	"path"
	"strings"
)

// Generic is the fallback extractor: a file node whose tags say what the
// file is (its extension and a category such as "doc" or "config"), with the
// first non-blank line as excerpt. It accepts any input.
var Generic Extractor = genericExtractor{}

type genericExtractor struct{}

func (genericExtractor) Language() string     { return "generic" }
func (genericExtractor) Extensions() []string { return nil }

// genericKinds maps extensions (without the dot) and well-known base names
// to a language name and a category tag.
var genericKinds = map[string][2]string{
	"md": {"markdown", "doc"}, "markdown": {"markdown", "doc"}, "mdx": {"markdown", "doc"},
	"rst": {"restructuredtext", "doc"}, "txt": {"text", "doc"}, "adoc": {"asciidoc", "doc"},
	"org": {"org", "doc"}, "tex": {"latex", "doc"}, "rtf": {"rtf", "doc"},
	"json": {"json", "config"}, "jsonc": {"json", "config"}, "json5": {"json", "config"},
	"ini": {"ini", "config"}, "cfg": {"ini", "config"}, "conf": {"conf", "config"},
	"properties": {"properties", "config"}, "env": {"dotenv", "config"},
	"xml": {"xml", "markup"}, "xsd": {"xml", "markup"}, "svg": {"svg", "markup"},
	"html": {"html", "markup"}, "htm": {"html", "markup"},
	"csv": {"csv", "data"}, "tsv": {"tsv", "data"},
	"sql": {"sql", "code"}, "proto": {"protobuf", "schema"}, "graphql": {"graphql", "schema"},
	"gql": {"graphql", "schema"}, "thrift": {"thrift", "schema"},
	"swift": {"swift", "code"}, "dart": {"dart", "code"}, "ex": {"elixir", "code"},
	"exs": {"elixir", "code"}, "erl": {"erlang", "code"}, "clj": {"clojure", "code"},
	"fs": {"fsharp", "code"}, "nim": {"nim", "code"}, "pl": {"perl", "code"},
	"pm": {"perl", "code"}, "vue": {"vue", "code"}, "svelte": {"svelte", "code"},
	"tf": {"terraform", "config"}, "hcl": {"hcl", "config"}, "nix": {"nix", "config"},
	"gradle": {"gradle", "build"}, "cmake": {"cmake", "build"}, "bzl": {"starlark", "build"},
	"dockerfile": {"dockerfile", "build"}, "lock": {"lockfile", "config"}, "mod": {"gomod", "build"},
	"sum": {"gosum", "build"}, "work": {"gowork", "build"},
}

var genericBases = map[string][2]string{
	"dockerfile": {"dockerfile", "build"}, "containerfile": {"dockerfile", "build"},
	"cmakelists.txt": {"cmake", "build"}, "build": {"starlark", "build"},
	"build.bazel": {"starlark", "build"}, "workspace": {"starlark", "build"},
	"license": {"text", "doc"}, "copying": {"text", "doc"}, "readme": {"text", "doc"},
	"authors": {"text", "doc"}, "changelog": {"text", "doc"}, "go.mod": {"gomod", "build"},
	"go.sum": {"gosum", "build"}, "go.work": {"gowork", "build"}, "procfile": {"procfile", "config"},
	".gitignore": {"gitignore", "config"}, ".dockerignore": {"gitignore", "config"},
	".editorconfig": {"ini", "config"}, ".gitattributes": {"gitattributes", "config"},
}

// genericInfo returns the language name and tags of a path for the fallback.
func genericInfo(p string) (lang string, tags []string) {
	base := strings.ToLower(path.Base(p))
	ext := strings.TrimPrefix(path.Ext(base), ".")
	if k, ok := genericBases[base]; ok {
		lang, tags = k[0], []string{k[1]}
	} else if k, ok := genericKinds[ext]; ok {
		lang, tags = k[0], []string{k[1]}
	} else {
		lang = "text"
	}
	if ext != "" && ext != base {
		tags = append([]string{ext}, tags...)
	}
	return lang, tags
}

func (genericExtractor) Extract(relPath string, src []byte) (*Result, error) {
	lang, tags := genericInfo(relPath)
	b := newBuilder(relPath, lang)
	b.file(countLines(src), firstLine(src), tags...)
	return b.finish(0), nil
}

// firstLine returns the first non-blank line of src as excerpt, looking at
// the first 4 KB only.
func firstLine(src []byte) string {
	s := trimTo(src, 4096)
	for len(s) > 0 {
		i := indexByte(s, '\n')
		ln := s
		if i >= 0 {
			ln, s = s[:i], s[i+1:]
		} else {
			s = nil
		}
		if e := excerpt(ln); e != "" {
			return e
		}
	}
	return ""
}
