package continuity

import (
	"encoding/json"
	"testing"
)

// FuzzLoadFiles feeds arbitrary bytes to the parsers of every continuity
// file (what a start reads from the runtime directory): none panics, and
// whatever one accepts validates and encodes again.
func FuzzLoadFiles(f *testing.F) {
	tr := sampleTrail("jimi", "x")
	tr.ID, tr.Format, tr.Status = "trail_jimi_001_abcdef", trailFormat, StatusSaved
	good, _ := json.Marshal(tr)
	f.Add(byte(0), "trail_jimi_001_abcdef.json", good)
	f.Add(byte(1), "lock_jimi_001.json", []byte(`{"format":1,"lock_id":"lock_jimi_001","agent_id":"jimi","scope":"node","root_nodes":["a"],"strategy":"manual","created_at_ms":1,"rebases":0,"baseline":{"nodes":{"a":"x"},"edges":{"a|b|calls":1},"boundary_edges":{},"files":{},"graph_generation":1,"plasticity_generation":0,"epoch":"e","taken_at_ms":1}}`))
	f.Add(byte(2), "persp_jimi_001.json", []byte(`{"format":1,"perspective_id":"persp_jimi_001","agent_id":"jimi","query":"q","lens":{},"mode":"local","focus_node":"a","history":[],"visited":["a"],"activation":{"a":{"score":0.5,"dims":[0,0,0,0]}},"routes":[],"route_set_version":1,"route_hash":"","cache_generation":0,"epoch":"e","created_at_ms":1,"last_accessed_ms":1,"nav_event_count":0}`))
	f.Add(byte(3), "jimi.json", []byte(`{"format":1,"agent_id":"jimi","entries":{"k":{"value":{"a":1},"updated_at_ms":1}}}`))
	f.Add(byte(0), "x.json", []byte(`{"format":1,"confidence":NaN}`))
	f.Fuzz(func(t *testing.T, kind byte, name string, data []byte) {
		var v interface{ Validate() error }
		switch kind % 4 {
		case 0:
			if tr, err := parseTrail(name, data); err == nil {
				v = tr
			}
		case 1:
			if l, err := parseLock(name, data); err == nil {
				v = l
			}
		case 2:
			if p, err := parsePerspective(name, data); err == nil {
				v = p
			}
		case 3:
			if _, am, err := parseMemory(name, data); err == nil && (len(am.entries) > MaxMemoryKeys || am.bytes > MaxMemoryBytes) {
				t.Fatalf("memory over its limits accepted")
			}
		}
		if v == nil {
			return
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("accepted but invalid: %v", err)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("accepted but not encodable: %v", err)
		}
	})
}
