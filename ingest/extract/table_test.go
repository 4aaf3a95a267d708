package extract

import (
	"testing"
)

// TestTableKindsExist checks every node kind and field named in the
// language tables against the grammar, so a typo or a grammar upgrade that
// renames a kind fails here instead of silently extracting nothing.
func TestTableKindsExist(t *testing.T) {
	for _, e := range tableExtractorsList() {
		te := e.(tableExtractor)
		l, g := te.l, te.g
		if err := g.init(); err != nil {
			t.Errorf("%s: %v", l.name, err)
			continue
		}
		var kinds, fields []string
		for _, d := range l.defs {
			kinds = append(kinds, d.kind)
			kinds = append(kinds, d.nameKinds...)
			kinds = append(kinds, d.bases...)
			kinds = append(kinds, d.impls...)
			for k := range d.byValue {
				kinds = append(kinds, k)
			}
			if d.must != "" {
				kinds = append(kinds, d.must)
			}
			fields = append(fields, d.drill, d.nameField, d.needField)
		}
		for _, c := range l.calls {
			kinds = append(kinds, c.kind)
			fields = append(fields, c.field, c.recv)
		}
		for _, im := range l.imports {
			kinds = append(kinds, im.kind)
			fields = append(fields, im.field, im.callee)
		}
		for _, p := range l.pkgs {
			kinds = append(kinds, p.kind)
			fields = append(fields, p.field)
		}
		kinds = append(kinds, l.stringKinds...)
		kinds = append(kinds, l.baseWrap...)
		if miss := g.missingKinds(kinds...); len(miss) > 0 {
			t.Errorf("%s (%v): node kinds not in the grammar: %v", l.name, l.exts, miss)
		}
		for _, f := range fields {
			if f != "" && g.field(f) == 0 {
				t.Errorf("%s (%v): field %q not in the grammar", l.name, l.exts, f)
			}
		}
	}
}

// TestFullKindsExist does the same for the hand-written extractors.
func TestFullKindsExist(t *testing.T) {
	for _, c := range []struct {
		g     *grammar
		kinds []string
	}{
		{pythonGrammar, pyKindNames},
		{goGrammar, goKindNames},
		{rustGrammar, rsKindNames},
		{javaGrammar, jvKindNames},
	} {
		if miss := c.g.missingKinds(c.kinds...); len(miss) > 0 {
			t.Errorf("%s: node kinds not in the grammar: %v", c.g.name, miss)
		}
	}
	// One table serves three grammars; each kind must exist in at least one.
	for _, k := range jsKindNames {
		if len(javascriptGrammar.missingKinds(k))+len(typescriptGrammar.missingKinds(k))+len(tsxGrammar.missingKinds(k)) == 3 {
			t.Errorf("javascript/typescript: node kind %q in no grammar", k)
		}
	}
}
