package extract

import (
	"bytes"
	"fmt"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

var reg struct {
	sync.Once
	byExt  map[string]Extractor // ".py" → extractor (lower case)
	byBase map[string]Extractor // "Makefile" → extractor (exact and lower case)
	all    []Extractor
}

// baseNamed is implemented by extractors that also claim well-known file
// names without (or regardless of) an extension, such as "Makefile".
type baseNamed interface {
	BaseNames() []string
}

func registry() {
	reg.Do(func() {
		reg.byExt = map[string]Extractor{}
		reg.byBase = map[string]Extractor{}
		add := func(e Extractor) {
			reg.all = append(reg.all, e)
			for _, x := range e.Extensions() {
				reg.byExt[strings.ToLower(x)] = e
			}
			if b, ok := e.(baseNamed); ok {
				for _, n := range b.BaseNames() {
					reg.byBase[n] = e
					reg.byBase[strings.ToLower(n)] = e
				}
			}
		}
		for _, e := range fullExtractors() {
			add(e)
		}
		for _, e := range tableExtractors() {
			add(e)
		}
	})
}

// For returns the extractor for a relative path, chosen by well-known base
// name first and extension second. It returns the generic extractor (file
// node with tags only) for anything else, so it never returns nil.
func For(relPath string) Extractor {
	registry()
	base := path.Base(cleanPath(relPath))
	if e, ok := reg.byBase[base]; ok {
		return e
	}
	if e, ok := reg.byBase[strings.ToLower(base)]; ok {
		return e
	}
	// Longest suffix first so ".d.ts"-style double extensions could win;
	// in practice this is the usual last extension.
	lower := strings.ToLower(base)
	for i := 0; i < len(lower); i++ {
		if lower[i] == '.' && i > 0 {
			if e, ok := reg.byExt[lower[i:]]; ok {
				return e
			}
		}
	}
	return Generic
}

// Languages returns the names of every language with a syntax-aware
// extractor, sorted. The generic fallback is not listed.
func Languages() []string {
	registry()
	seen := map[string]bool{}
	var out []string
	for _, e := range reg.all {
		if l := e.Language(); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// Extractors returns every registered syntax-aware extractor.
func Extractors() []Extractor {
	registry()
	return slices.Clone(reg.all)
}

// ExtractFile extracts one file with the extractor For picks. A failing
// extractor (an error, or a panic, which is recovered here) does not lose the
// file: the result is then the generic fallback (the file node with tags)
// and err says what went wrong, so callers may keep the result and count the
// error.
func ExtractFile(relPath string, src []byte) (*Result, error) {
	e := For(relPath)
	if e.Language() == "c" && strings.HasSuffix(strings.ToLower(relPath), ".h") && looksLikeCpp(src) {
		// .h is shared by C and C++; C++ headers parsed as C lose their
		// classes and namespaces.
		e = forLanguage("cpp", e)
	}
	if e.Language() == "cpp" {
		src = blankExportMacros(src)
		if b := blankDeclMacros(src); len(b) > 0 && &b[0] != &src[0] {
			return extractBlanked(e, relPath, src, b)
		}
	}
	return extractWith(e, relPath, src)
}

// extractBlanked extracts a C++ file whose declarations' export macros
// were blanked (blankDeclMacros), and keeps that reading only when it
// parses without a syntax error. tree-sitter's error recovery is not
// local: in a file that still has errors, a repaired line can tip a whole
// namespace into one (googletest's gtest.h: 7.9 → 85.8 KB in error
// regions, its declarations nested in the wrong namespace), so such a
// file is read as written.
func extractBlanked(e Extractor, relPath string, src, blanked []byte) (*Result, error) {
	if res, err := extractWith(e, relPath, blanked); err == nil && res.ParseErrors == 0 {
		return res, nil
	}
	return extractWith(e, relPath, src)
}

// looksLikeCpp sniffs the first 64 KB of a header for C++-only syntax.
func looksLikeCpp(src []byte) bool {
	head := src[:min(len(src), 64<<10)]
	for _, sig := range []string{"namespace ", "template<", "template <", "public:", "private:", "protected:", "std::"} {
		if bytes.Contains(head, []byte(sig)) {
			return true
		}
	}
	return hasClassDecl(head)
}

// hasClassDecl reports a `class Name {` or `class Name :` declaration (the
// word alone may be prose in a C comment).
func hasClassDecl(b []byte) bool {
	for {
		i := bytes.Index(b, []byte("class "))
		if i < 0 {
			return false
		}
		if i == 0 || b[i-1] == ' ' || b[i-1] == '\n' || b[i-1] == '\t' {
			j := i + len("class ")
			for j < len(b) && b[j] == ' ' {
				j++
			}
			k := j
			for k < len(b) && (b[k] == '_' || (b[k]|0x20 >= 'a' && b[k]|0x20 <= 'z') || (b[k] >= '0' && b[k] <= '9')) {
				k++
			}
			for k < len(b) && (b[k] == ' ' || b[k] == '\n' || b[k] == '\t') {
				k++
			}
			if k > j && k < len(b) && (b[k] == '{' || b[k] == ':') {
				return true
			}
		}
		b = b[i+len("class "):]
	}
}

// forLanguage returns the first registered extractor of a language, or def.
func forLanguage(lang string, def Extractor) Extractor {
	registry()
	for _, e := range reg.all {
		if e.Language() == lang {
			return e
		}
	}
	return def
}

// extractWith runs e with panic recovery and the generic fallback.
func extractWith(e Extractor, relPath string, src []byte) (res *Result, err error) {
	res, err = safeExtract(e, relPath, src)
	if err == nil && res != nil {
		markDeprecated(res, src)
		return res, nil
	}
	if err == nil {
		err = fmt.Errorf("extract %s: %s extractor returned no result", relPath, e.Language())
	}
	fb, ferr := safeExtract(Generic, relPath, src)
	if ferr != nil {
		return nil, err
	}
	fb.Language = e.Language()
	return fb, err
}

func safeExtract(e Extractor, relPath string, src []byte) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = fmt.Errorf("extract %s: %s extractor panicked: %v\n%s", relPath, e.Language(), r, debug.Stack())
		}
	}()
	return e.Extract(relPath, src)
}
