package extract

// fullExtractors are the hand-written, full-depth extractors.
func fullExtractors() []Extractor {
	return []Extractor{pythonExtractor{}, goExtractor{}}
}

// tableExtractors are the languages served by the table-driven extractor.
func tableExtractors() []Extractor { return nil }
