package contract

import (
	"strings"
	"testing"
)

// FuzzExtract: any source, in any of the languages read, gives routes
// and requests on lines of the file with normalised paths, and never
// panics.
func FuzzExtract(f *testing.F) {
	f.Add("a.go", `mux.HandleFunc("GET /api/users/{id}", h.get); http.Get(base + "/x/" + id)`)
	f.Add("a.js", "fetch(`/api/${id}`, { method: 'PUT' }); app.use('/api', r); r.get('/x', h)")
	f.Add("a.py", "@bp.route('/u/<int:id>', methods=['GET'])\ndef u(id):\n    return requests.get(f'{B}/x/{id}')\n")
	f.Add("a.proto", "package p; service S { rpc A(B) returns (C); }")
	f.Add("a.ts", "c.post<A<B>, C>({ url: '/api/v1/items/{id}' })")
	f.Fuzz(func(t *testing.T, name, src string) {
		lines := strings.Count(src, "\n") + 1
		f := Extract(name, []byte(src))
		for _, r := range f.Routes {
			if r.Line < 1 || r.Line > lines || !strings.HasPrefix(r.Path, "/") {
				t.Fatalf("route %+v", r)
			}
		}
		for _, q := range f.Requests {
			if q.Line < 1 || q.Line > lines || !strings.HasPrefix(q.Path, "/") {
				t.Fatalf("request %+v", q)
			}
		}
		NewServiceMatcher([]Service{{Package: "p", Name: "S"}}).Refs(name, []byte(src))
	})
}
