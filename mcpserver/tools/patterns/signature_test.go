package patterns

import (
	"strings"
	"testing"
)

func TestSignature(t *testing.T) {
	for _, tc := range []struct {
		src, name, params, results, body string
	}{
		{"func (s *Server) Current() *Config { return s.Cfg }", "Current", "", " *Config ", " return s.Cfg }"},
		{"func NewConfig(name string) *Config {\n\treturn &Config{}\n}", "NewConfig", "name string", " *Config ", "\n\treturn &Config{}\n}"},
		{"def load(self, cfg: Config) -> Store:\n    return Store(cfg)", "load", "self, cfg: Config", " -> Store:", "    return Store(cfg)"},
		{"function make(opts: Options): Client {\n  return new Client(opts);\n}", "make", "opts: Options", ": Client ", "\n  return new Client(opts);\n}"},
		{"def run(\n    cmd,\n    env=None,\n):\n    pass", "run", "\n    cmd,\n    env=None,\n", ":", "    pass"},
	} {
		p, r, b := signature(strings.Split(tc.src, "\n"), tc.name)
		if p != tc.params || r != tc.results || b != tc.body {
			t.Errorf("%q:\n got %q | %q | %q\nwant %q | %q | %q", tc.src, p, r, b, tc.params, tc.results, tc.body)
		}
	}
}
