package seek

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"validateCredentials", []string{"validat", "credential", "validatecredentials"}},
		{"validate_credentials", []string{"validat", "credential", "validatecredentials"}},
		{"validates the user's credentials", []string{"validat", "user", "credential"}},
		{"HTTPServer", []string{"http", "server", "httpserver"}},
		{"parseHTTPRequest2", []string{"pars", "http", "request", "parsehttprequest2"}},
		{"utf8Decode", []string{"utf", "decod", "utf8decode"}},
		{"mcpserver/tools/seek.go:42", []string{"mcpserver", "tool", "seek", "go"}},
		{"MAX_RETRY_COUNT", []string{"max", "retri", "count", "maxretrycount"}},
		{"md5 sha256", []string{"md", "md5", "sha", "sha256"}},
		// keywords are stopwords, also inside identifiers
		{"CASE_CONST", []string{"caseconst"}},
		{"func (g *Graph) Merge(src *Graph) error {", []string{"graph", "merg", "src", "graph", "error"}},
		// hashes and addresses are not split into random letters
		{"commit 9b7dd36a1f and 0xc000010000", []string{"commit"}},
		// one-letter parts and pure numbers are dropped
		{"x = a[1] + 404", nil},
		{"naïve_café", []string{"naïve", "café", "naïvecafé"}},
	}
	for _, tt := range tests {
		if got := Terms(tt.in); !cmp.Equal(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStem(t *testing.T) {
	groups := [][]string{
		{"validate", "validates", "validated", "validating"},
		{"parse", "parses", "parsed", "parsing"},
		{"cache", "caches", "cached", "caching"},
		{"process", "processes", "processed", "processing"},
		{"address", "addresses"},
		{"run", "running"},
		{"stop", "stopped", "stopping"},
		{"call", "calls", "called", "calling"},
		{"entry", "entries"},
		{"cookie", "cookies"},
		{"query", "queries"},
		{"retry", "retries", "retried"},
		{"use", "used", "uses"},
		{"handle", "handles", "handled", "handling"},
	}
	for _, grp := range groups {
		want := string(stemInto(nil, []byte(grp[0])))
		for _, w := range grp[1:] {
			if got := string(stemInto(nil, []byte(w))); got != want {
				t.Errorf("stem(%q) = %q, want %q (as stem(%q))", w, got, want, grp[0])
			}
		}
	}
	// Words that must keep their identity.
	for w, want := range map[string]string{
		"string": "string", "status": "status", "class": "class", "analysis": "analysis",
		"handler": "handler", "parser": "parser", "need": "need", "speed": "speed", "bus": "bus",
		"key": "key", "array": "array", "day": "day",
	} {
		if got := string(stemInto(nil, []byte(w))); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestLooksLikeHash(t *testing.T) {
	for s, want := range map[string]bool{
		"9b7dd36": true, "0xc000010000": true, "deadbeef": false, "abcdefgh": false,
		"1234567": false, "sha256": false, "utf8decode": false,
	} {
		if got := looksLikeHash([]byte(s)); got != want {
			t.Errorf("looksLikeHash(%q) = %v, want %v", s, got, want)
		}
	}
}
