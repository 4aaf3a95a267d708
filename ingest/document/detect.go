package document

import (
	"bytes"
	"context"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/walk"
)

// HeadBytes is how much of a file detection reads.
const HeadBytes = 8 << 10

// SampleSize is how many files DetectDirectory inspects.
const SampleSize = 20

var (
	lightProto   = regexp.MustCompile(`(?mi)^\s*protocol:\s*l1ght`)
	lightMarker  = regexp.MustCompile(`\[(?:⍂|⍐|⍌|𝔻|⟁|RED|AMBER) [a-z_ ]+:`)
	xmlRootRe    = regexp.MustCompile(`<([A-Za-z][\w.:-]*)[\s>/]`)
	jatsHintRe   = regexp.MustCompile(`(?i)jats|nlm|article-meta|journal-meta`)
	universalExt = map[string]Format{
		".md": Markdown, ".markdown": Markdown, ".mdown": Markdown, ".mkd": Markdown,
		".rst": RST, ".rest": RST,
		".adoc": AsciiDoc, ".asciidoc": AsciiDoc, ".asc": AsciiDoc,
		".txt": Text, ".text": Text,
		".html": HTML, ".htm": HTML, ".xhtml": HTML,
		".pdf": PDF, ".docx": DOCX,
	}
)

// DetectFile returns the format of a file from its name and first bytes
// (head may be nil for formats the extension decides): the router of the
// auto adapter (docs/design.md#adapters). Code (the fallback) means the
// file is no document.
func DetectFile(name string, head []byte) Format {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".bib", ".bibtex":
		return BibTeX
	case ".xml", ".nxml":
		return detectXML(head)
	case ".json":
		if isCrossRef(head) {
			return CrossRef
		}
		return Code
	}
	f, ok := universalExt[ext]
	if !ok {
		return Code
	}
	if f == Markdown && IsLight(head) {
		return Light
	}
	return f
}

// IsLight reports whether Markdown is authored in the L1GHT protocol: a
// "Protocol: L1GHT" header, or at least three L1GHT markers.
func IsLight(head []byte) bool {
	return lightProto.Match(head) || len(lightMarker.FindAllIndex(head, 3)) >= 3
}

// detectXML inspects the root element.
func detectXML(head []byte) Format {
	for _, m := range xmlRootRe.FindAllSubmatch(head, 8) {
		name := strings.ToLower(string(m[1]))
		if i := strings.IndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		if strings.HasPrefix(name, "?") || strings.HasPrefix(name, "!") {
			continue
		}
		switch {
		case name == "rfc":
			return RFC
		case name == "article" && (jatsHintRe.Match(head) || bytes.Contains(head, []byte("<front"))):
			return JATS
		case strings.Contains(name, "patent") || name == "ep-patent-document" || name == "patentdocument":
			return Patent
		}
		return Code
	}
	return Code
}

// isCrossRef: a JSON object with DOI, publisher and type keys (a work or
// a {"message": work} API answer).
func isCrossRef(head []byte) bool {
	return bytes.Contains(head, []byte(`"DOI"`)) && bytes.Contains(head, []byte(`"publisher"`)) && bytes.Contains(head, []byte(`"type"`))
}

// IsDocument reports whether a format is read by the document lane.
func IsDocument(f Format) bool { return f != Code && f != "" }

// readHead reads the first HeadBytes of a file ("" on error).
func readHead(abs string) []byte {
	f, err := os.Open(abs)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, HeadBytes)
	n, _ := f.Read(buf)
	return buf[:n]
}

// DirectoryGuess is what DetectDirectory found.
type DirectoryGuess struct {
	// Format is the dominant format of the sample (Code when code files
	// dominate).
	Format Format `json:"format"`
	// Sampled counts the sample per format.
	Sampled map[Format]int `json:"sampled"`
	// Files is how many files the walk saw.
	Files int `json:"files"`
}

// DetectDirectory samples up to SampleSize files of a walked tree, spread
// evenly over its sorted file list, and returns the dominant format. A tie
// goes to the format with more files in the whole tree by extension, then
// to documents, then by name, so the answer is deterministic.
func DetectDirectory(files []walk.File) DirectoryGuess {
	g := DirectoryGuess{Format: Code, Sampled: map[Format]int{}, Files: len(files)}
	if len(files) == 0 {
		return g
	}
	step := max(1, len(files)/SampleSize)
	for i := 0; i < len(files) && sum(g.Sampled) < SampleSize; i += step {
		f := files[i]
		var head []byte
		switch strings.ToLower(path.Ext(f.Rel)) {
		case ".md", ".markdown", ".xml", ".nxml", ".json":
			head = readHead(f.Abs)
		}
		g.Sampled[DetectFile(f.Rel, head)]++
	}
	type kv struct {
		f Format
		n int
	}
	var all []kv
	for f, n := range g.Sampled {
		all = append(all, kv{f, n})
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.n != b.n {
			return b.n - a.n
		}
		if IsDocument(a.f) != IsDocument(b.f) {
			if IsDocument(a.f) {
				return -1
			}
			return 1
		}
		return strings.Compare(string(a.f), string(b.f))
	})
	g.Format = all[0].f
	return g
}

func sum(m map[Format]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// Detect is DetectFile for a path on disk (its head read when the
// extension does not decide).
func Detect(abs string) Format {
	switch strings.ToLower(path.Ext(abs)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".xml", ".nxml", ".json":
		return DetectFile(abs, readHead(abs))
	}
	return DetectFile(abs, nil)
}

// DetectPath detects a file or, for a directory, the dominant format of a
// sample of its files (walk rules as for ingest).
func DetectPath(ctx context.Context, root string) (DirectoryGuess, error) {
	st, err := os.Stat(root)
	if err != nil {
		return DirectoryGuess{}, err
	}
	if !st.IsDir() {
		f := Detect(root)
		return DirectoryGuess{Format: f, Sampled: map[Format]int{f: 1}, Files: 1}, nil
	}
	wr, err := walk.Walk(ctx, root, walk.Options{MaxFiles: 200_000})
	if err != nil {
		return DirectoryGuess{}, err
	}
	return DetectDirectory(wr.Files), nil
}
