package semantic

import (
	"fmt"
	"strings"
)

// DefaultSynonymGroups returns the 15 built-in groups of interchangeable
// terms: the code vocabulary agents and codebases use for the same idea,
// with the Portuguese domain terms of the original deployment. A term
// belongs to at most one group, so expansion never chains from one group
// into another.
func DefaultSynonymGroups() [][]string {
	return [][]string{
		{"auth", "authentication", "authenticate", "authn", "login", "logon", "signin", "credential", "credentials", "autenticacao", "autenticação"},
		{"db", "database", "storage", "persistence", "repository", "datastore", "banco", "armazenamento", "persistencia", "persistência"},
		{"config", "configuration", "settings", "options", "preferences", "conf", "configuracao", "configuração"},
		{"error", "errors", "exception", "panic", "failure", "fault", "erro", "excecao", "exceção", "falha"},
		{"test", "tests", "testing", "unittest", "spec", "teste", "testes", "ensaio"},
		{"function", "func", "fn", "method", "procedure", "funcao", "função", "metodo", "método"},
		{"class", "struct", "record", "classe", "estrutura"},
		{"module", "package", "crate", "library", "lib", "pacote", "modulo", "módulo", "biblioteca"},
		{"import", "imports", "require", "include", "dependency", "dependencies", "dependencia", "dependência"},
		{"user", "users", "account", "member", "profile", "usuario", "usuário", "conta"},
		{"request", "req", "response", "resp", "requisicao", "requisição", "resposta"},
		{"handler", "controller", "route", "router", "endpoint", "rota", "controlador"},
		{"log", "logger", "logging", "audit", "registro"},
		{"cost", "price", "pricing", "custo", "preco", "preço", "valor"},
		{"supplier", "vendor", "provider", "fornecedor", "fornecedores"},
	}
}

// SynonymExpander maps a term to the other members of its group.
// Immutable after construction and safe for concurrent use.
type SynonymExpander struct {
	groups [][]string
	group  map[string]int
}

// NewSynonymExpander builds an expander from groups (terms are compared in
// lower case). A term listed in two groups is an error: expansion would
// otherwise silently merge unrelated groups through it.
func NewSynonymExpander(groups [][]string) (*SynonymExpander, error) {
	s := &SynonymExpander{group: map[string]int{}}
	for gi, grp := range groups {
		var members []string
		for _, t := range grp {
			t = strings.ToLower(strings.TrimSpace(t))
			if t == "" {
				continue
			}
			if prev, ok := s.group[t]; ok {
				if prev == len(s.groups) {
					continue // repeated inside one group
				}
				return nil, fmt.Errorf("synonym term %q appears in groups %d and %d", t, prev, gi)
			}
			s.group[t] = len(s.groups)
			members = append(members, t)
		}
		if len(members) > 1 {
			s.groups = append(s.groups, members)
		} else {
			for _, t := range members {
				delete(s.group, t)
			}
		}
	}
	return s, nil
}

// NumGroups is the number of groups with at least two terms.
func (s *SynonymExpander) NumGroups() int { return len(s.groups) }

// Expand returns the other terms of term's group (without term itself),
// or nil when term is in no group.
func (s *SynonymExpander) Expand(term string) []string {
	gi, ok := s.group[strings.ToLower(term)]
	if !ok {
		return nil
	}
	lt := strings.ToLower(term)
	out := make([]string, 0, len(s.groups[gi])-1)
	for _, m := range s.groups[gi] {
		if m != lt {
			out = append(out, m)
		}
	}
	return out
}

// AreSynonyms reports whether a and b are equal or in the same group.
func (s *SynonymExpander) AreSynonyms(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if a == b {
		return true
	}
	ga, oka := s.group[a]
	gb, okb := s.group[b]
	return oka && okb && ga == gb
}
