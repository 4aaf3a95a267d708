package extract

// fullExtractors are the hand-written, full-depth extractors.
func fullExtractors() []Extractor {
	return []Extractor{
		pythonExtractor{},
		goExtractor{},
		newJSExtractor("javascript", javascriptGrammar, ".js", ".jsx", ".mjs", ".cjs"),
		newJSExtractor("typescript", typescriptGrammar, ".ts", ".mts", ".cts"),
		newJSExtractor("typescript", tsxGrammar, ".tsx"),
		rustExtractor{},
		javaExtractor{},
	}
}

// tableExtractors are the languages served by the table-driven extractor.
func tableExtractors() []Extractor { return tableExtractorsList() }
