package document

import "errors"

// errNotYet marks the structured formats still to come.
var errNotYet = errors.New("this structured format is not read yet; ingest it with adapter \"universal\" as text")

// ParseLight reads L1GHT Markdown (for now as Markdown).
func ParseLight(path string, data []byte) *Canonical {
	c := ParseMarkdown(path, data)
	c.Format = Light
	return c
}

// ParseBibTeX reads a BibTeX file.
func ParseBibTeX(path string, data []byte) (*Canonical, error) { return nil, errNotYet }

// ParseJATS reads a JATS article.
func ParseJATS(path string, data []byte) (*Canonical, error) { return nil, errNotYet }

// ParsePatent reads a patent XML document.
func ParsePatent(path string, data []byte) (*Canonical, error) { return nil, errNotYet }

// ParseRFC reads an RFC XML v3 document.
func ParseRFC(path string, data []byte) (*Canonical, error) { return nil, errNotYet }

// ParseCrossRef reads CrossRef work JSON.
func ParseCrossRef(path string, data []byte) (*Canonical, error) { return nil, errNotYet }
