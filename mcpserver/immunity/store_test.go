package immunity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/risk"
)

func TestStoreRoundTripAndBackup(t *testing.T) {
	dir := t.TempDir()
	st := Open(dir)
	st.Trust.Record("file::a.py", risk.Defect, 100)
	st.Tremor.Observe("file::a.py", 5000, 0.5)
	p := antibody.Pattern{Nodes: []antibody.PatternNode{{ID: "a", Label: "load", Mode: antibody.Exact}}}
	if _, err := st.Antibodies.Create(antibody.Antibody{Pattern: p, Severity: antibody.Low}, antibody.Substring); err != nil {
		t.Fatal(err)
	}
	for _, save := range []func() error{st.SaveTrust, st.SaveTremor, st.SaveAntibodies, st.SaveAntibodies} {
		if err := save(); err != nil {
			t.Fatal(err)
		}
	}
	back := Open(dir)
	if e, _ := back.Trust.Get("file::a.py"); e.Defects != 1 || len(back.Tremor.Of("file::a.py")) != 1 || back.Antibodies.Len() != 1 || len(back.Warnings) != 0 {
		t.Fatalf("reloaded: %+v %v %d %v", e, back.Tremor.Of("file::a.py"), back.Antibodies.Len(), back.Warnings)
	}
	// A damaged antibodies.json: the backup (the version before the last
	// save) is read, with a warning; a damaged trust file starts empty.
	os.WriteFile(filepath.Join(dir, AntibodyFile), []byte("{"), 0o644)
	os.WriteFile(filepath.Join(dir, TrustFile), []byte("{"), 0o644)
	dam := Open(dir)
	if dam.Antibodies.Len() != 1 || len(dam.Warnings) != 3 || !strings.Contains(strings.Join(dam.Warnings, "|"), ".bak") {
		t.Errorf("damaged: %d antibodies, warnings %v", dam.Antibodies.Len(), dam.Warnings)
	}
	if _, ok := dam.Trust.Get("file::a.py"); ok {
		t.Error("a damaged trust file was read")
	}
	// Memory only: nothing written, no error.
	mem := Open("")
	if mem.Persistent() || mem.SaveTrust() != nil || mem.SaveAntibodies() != nil {
		t.Error("memory-only store")
	}
}
