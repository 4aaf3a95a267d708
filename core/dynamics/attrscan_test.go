package dynamics

import (
	"fmt"
	"testing"
)

func TestScanAccesses(t *testing.T) {
	py := []objRef{{name: "self"}, {name: "Cache", class: true}}
	goPtr := []objRef{{name: "s"}}
	goVal := []objRef{{name: "s", readOnly: true}}
	js := []objRef{{name: "this"}, {name: "Cache", class: true}}
	methods := map[string]bool{"get": true}
	for _, tc := range []struct {
		name    string
		recvs   []objRef
		comment string
		lines   []string
		want    string
		locked  bool
	}{
		{"python writes", py, "#", []string{
			"def put(self, k, v):",
			"    self.items[k] = v",
			"    self.size += 1",
			"    Cache.hits += 1",
			"    self.log.append(k)",
			"    del self.cache[k]",
			"    x = self.size == 0  # self.ignored = 1",
			"    return self.get(k)",
		}, "[items w:2 size w:3 hits w:4 class log w:5 cache w:6 size r:7]", false},
		{"python reads and calls", py, "#", []string{
			"def get(self, k):",
			"    return self.items.get(k), self.mapper(k), self.items[k]",
			"    model = self.other",
		}, "[items r:2 mapper r:2 items r:2 other r:3]", false},
		{"python lock", py, "#", []string{
			"def put(self, k):",
			"    with self._lock:",
			"        self.items[k] = 1",
		}, "[items w:3]", true},
		{"go pointer receiver", goPtr, "//", []string{
			"func (s *Store) Put(k string) {",
			"\ts.items[k] = 1",
			"\ts.count++",
			"\tdelete(s.index, k)",
			"\ts.mu.Lock()",
			"\tif s.count == 0 { return }",
			"\tns.x = 1",
		}, "[items w:2 count w:3 index w:4 count r:6]", true},
		{"go value receiver writes a copy", goVal, "//", []string{
			"func (s Store) Bump() {",
			"\ts.count++",
		}, "[count r:2]", false},
		{"js", js, "//", []string{
			"put(k, v) { this.items[k] = v; this.size += 1; this.list.push(k); return this.get(k) }",
			"const f = () => this.size === 1 // this.ignored = 2",
		}, "[items w:1 size w:1 list w:1 size r:2]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc, locked := scanAccesses(tc.lines, 1, tc.recvs, methods, tc.comment)
			var got []string
			for _, a := range acc {
				s := fmt.Sprintf("%s r:%d", a.attr, a.line)
				if a.write {
					s = fmt.Sprintf("%s w:%d", a.attr, a.line)
				}
				if a.class {
					s += " class"
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != tc.want || locked != tc.locked {
				t.Errorf("got %v locked=%v, want %s locked=%v", got, locked, tc.want, tc.locked)
			}
		})
	}
}

func TestScanNames(t *testing.T) {
	names := map[string]bool{"registry": true, "total": true}
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"def put(k):", "    registry[k] = 1", "    registry.update(x)", "    del registry[k]"}, "[registry w:2 registry w:3 registry w:4]"},
		{[]string{"def get(k):", "    total = 0  # a local: no global", "    return registry.get(k), self.total"}, "[total r:2 registry r:3]"},
		{[]string{"def bump():", "    global total", "    total += 1", "    total = total + 1"}, "[total w:3 total w:4 total r:4]"},
	} {
		acc, _ := scanNames(tc.lines, 1, names, "#")
		var got []string
		for _, a := range acc {
			k := "r"
			if a.write {
				k = "w"
			}
			got = append(got, fmt.Sprintf("%s %s:%d", a.attr, k, a.line))
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%q: got %v, want %s", tc.lines, got, tc.want)
		}
	}
}
