package snapshot

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// Meta travels inside the snapshot, in both formats, and a file saved
// without meta loads with none.
func TestMetaRoundTrip(t *testing.T) {
	g := fixture()
	dir := t.TempDir()
	meta := []byte(`{"save":7,"roots":["/repo"]}`)
	for _, name := range []string{"g.bin", "g.json"} {
		for _, want := range [][]byte{meta, nil} {
			path := filepath.Join(dir, name)
			if err := SaveWithMeta(g, want, path); err != nil {
				t.Fatalf("%s: save: %v", name, err)
			}
			got, gotMeta, err := LoadWithMeta(path)
			if err != nil {
				t.Fatalf("%s: load: %v", name, err)
			}
			if !bytes.Equal(gotMeta, want) {
				t.Errorf("%s: meta = %q, want %q", name, gotMeta, want)
			}
			wn, we := dump(g)
			gn, ge := dump(got)
			if d := cmp.Diff(wn, gn); d != "" && name == "g.bin" {
				t.Errorf("%s nodes differ: %s", name, d)
			}
			if len(ge) != len(we) {
				t.Errorf("%s: %d edges, want %d", name, len(ge), len(we))
			}
		}
	}
	if err := SaveWithMeta(g, []byte("not json"), filepath.Join(dir, "x.json")); err == nil {
		t.Error("a JSON snapshot accepted meta that is not JSON")
	}
}

// A version 1 binary snapshot (no meta section) still loads.
func TestBinaryVersion1Loads(t *testing.T) {
	g := fixture()
	v2, err := EncodeBinaryWithMeta(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	// v1 = v2 without the meta length that follows the generation.
	const at = 8 + 4 + 4 + 8
	const trailer = 8 + 4 + 8
	body := append(append([]byte{}, v2[:at]...), v2[at+8:len(v2)-trailer]...)
	binary.LittleEndian.PutUint32(body[8:], 1)
	v1 := binary.LittleEndian.AppendUint64(body, uint64(len(body)))
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, castagnoli))
	v1 = append(v1, binaryTrailer[:]...)
	got, meta, err := DecodeBinaryWithMeta(v1)
	if err != nil {
		t.Fatalf("version 1 file: %v", err)
	}
	if meta != nil || got.NumEdges() != g.NumEdges() || got.NumNodes() != g.NumNodes() {
		t.Errorf("version 1 file: meta %q, %d nodes %d edges; want none, %d, %d", meta, got.NumNodes(), got.NumEdges(), g.NumNodes(), g.NumEdges())
	}
}

func TestPlasticityStamp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	states := []plasticity.SynapticState{{SourceLabel: "a", TargetLabel: "b", Relation: "calls", OriginalWeight: 1, CurrentWeight: 1.5}}
	for _, stamp := range []string{"save-3", ""} {
		if err := SavePlasticityStamped(path, states, stamp); err != nil {
			t.Fatal(err)
		}
		got, gotStamp, err := LoadPlasticityStamped(path)
		if err != nil || gotStamp != stamp || len(got) != 1 {
			t.Errorf("stamp %q: got %q, %d states, %v", stamp, gotStamp, len(got), err)
		}
	}
}

// The saver's meta travels in the plasticity file with the states; a file
// without meta reads as nil, and the states read the same either way.
func TestPlasticityMeta(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	states := []plasticity.SynapticState{
		{SourceLabel: "a", TargetLabel: "b", Relation: "calls", OriginalWeight: 1, CurrentWeight: 1.5, StrengthenCount: 2},
		{SourceLabel: "file::x.go::<T>", TargetLabel: "\"q\"\n", Relation: "imports", OriginalWeight: 0.3, CurrentWeight: 1e-9, LTDApplied: true},
	}
	for _, tc := range []struct {
		meta  json.RawMessage
		edges []plasticity.SynapticState
	}{{json.RawMessage(`{"base":"save-3-journal-9","journal_seq":12}`), states}, {nil, states}, {nil, []plasticity.SynapticState{}}} {
		var write func(io.Writer) error
		if tc.meta != nil {
			write = func(w io.Writer) error { _, err := w.Write(tc.meta); return err }
		}
		if err := SavePlasticityWithMeta(path, tc.edges, "save-4-journal-12", write); err != nil {
			t.Fatal(err)
		}
		got, stamp, gotMeta, err := LoadPlasticityWithMeta(path)
		if err != nil || stamp != "save-4-journal-12" || !bytes.Equal(gotMeta, tc.meta) {
			t.Fatalf("meta %s: read stamp %q, meta %s, %v", tc.meta, stamp, gotMeta, err)
		}
		if diff := cmp.Diff(tc.edges, got); diff != "" {
			t.Fatalf("meta %s: states (-saved +read):\n%s", tc.meta, diff)
		}
		if plain, err := LoadPlasticity(path); err != nil || !cmp.Equal(tc.edges, plain) {
			t.Fatalf("meta %s: LoadPlasticity: %v, %v", tc.meta, plain, err)
		}
	}
}
