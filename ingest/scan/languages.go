package scan

import (
	"slices"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The grammars are the ones ingest/extract links (same modules, same
// versions); each language here gets its own parsers and queries.
var languages = map[string]*lang{
	"go":         goLanguage(tsgo.Language),
	"python":     pythonLanguage(tspy.Language),
	"javascript": jsLanguage("javascript", tsjs.Language, false),
	"typescript": jsLanguage("typescript", tsts.LanguageTypescript, true),
	"tsx":        jsLanguage("tsx", tsts.LanguageTSX, true),
	"java":       javaLanguage(tsjava.Language),
	"rust":       rustLanguage(tsrust.Language),
}

func languageFor(name string) *lang { return languages[name] }

// languageNames lists the scanned languages, sorted.
func languageNames() []string {
	var out []string
	for n := range languages {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
