package document

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/ingest/walk"
)

var (
	errBinary     = errors.New("binary file")
	errEncoding   = errors.New("not UTF-8 text")
	errNoProvider = errors.New("no provider")
)

// Parse normalizes one document's bytes in a known format. Formats that
// need a provider (PDF, DOCX) are not parsed here; see Convert.
func Parse(format Format, path string, data []byte) (*Canonical, error) {
	switch format {
	case Markdown:
		return ParseMarkdown(path, data), nil
	case RST:
		return ParseRST(path, data), nil
	case AsciiDoc:
		return ParseAsciiDoc(path, data), nil
	case Text:
		return ParseText(path, data), nil
	case HTML:
		return ParseHTML(path, data), nil
	case Light:
		return ParseLight(path, data), nil
	case BibTeX:
		return ParseBibTeX(path, data)
	case JATS:
		return ParseJATS(path, data)
	case Patent:
		return ParsePatent(path, data)
	case RFC:
		return ParseRFC(path, data)
	case CrossRef:
		return ParseCrossRef(path, data)
	}
	return nil, fmt.Errorf("format %q has no parser", format)
}

// readDocument reads and parses one walked file; it returns the document
// and its line count.
func readDocument(ctx context.Context, abs, rel string, f Format) (*Canonical, int, error) {
	if f == PDF || f == DOCX {
		data, as, err := Convert(ctx, f, abs)
		if err != nil {
			return nil, 0, err
		}
		c, err := Parse(as, rel, data)
		if err != nil {
			return nil, 0, err
		}
		c.Format = f
		return c, bytes.Count(data, []byte{'\n'}) + 1, nil
	}
	data, err := walk.ReadFile(abs, 0)
	if err != nil {
		return nil, 0, err
	}
	switch walk.Classify(data) {
	case walk.Binary:
		return nil, 0, errBinary
	case walk.Undecodable:
		return nil, 0, errEncoding
	}
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	c, err := Parse(f, rel, data)
	if err != nil {
		return nil, 0, err
	}
	return c, bytes.Count(data, []byte{'\n'}) + 1, nil
}
