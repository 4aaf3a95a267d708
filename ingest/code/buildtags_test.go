package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// A pair of files chosen by a custom build tag, written with the legacy
// "// +build" line (rs/zerolog's encoder_json.go and encoder_cbor.go): a
// plain file's call means the default build's declaration, as go/types
// resolves it, and a file built only with the tag means the tag's.
func TestLegacyBuildTagPairs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":         "module example.com/enc\n\ngo 1.22\n",
		"enc_json.go":    "// +build !binary_log\n\npackage enc\n\nfunc decode(b []byte) string { return string(b) }\n",
		"enc_cbor.go":    "// +build binary_log\n\npackage enc\n\nfunc decode(b []byte) string { return \"cbor\" }\n",
		"use.go":         "package enc\n\n// Use decodes.\nfunc Use() string { return decode(nil) }\n",
		"binary_test.go": "//go:build binary_log\n// +build binary_log\n\npackage enc\n\nfunc useBinary() string { return decode(nil) }\n",
	})
	d := graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"file::use.go::Use", "file::enc_json.go::decode", true},
		{"file::use.go::Use", "file::enc_cbor.go::decode", false},
		{"file::binary_test.go::useBinary", "file::enc_cbor.go::decode", true},
		{"file::binary_test.go::useBinary", "file::enc_json.go::decode", false},
	} {
		if got := d.Has(c.from, "calls", c.to); got != c.want {
			t.Errorf("%s calls %s: %v, want %v (edges: %v)", c.from, c.to, got, c.want, d.EdgeStrings())
		}
	}
}
