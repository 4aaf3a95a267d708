package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/plasticity"
)

// metaHead, Files and metaTail are stateMeta's members, in its order,
// with its names, types and options: a member added to stateMeta and not
// here fails this test instead of going missing from the snapshot.
func TestMetaPartsMirrorStateMeta(t *testing.T) {
	var got []reflect.StructField
	for _, v := range []any{metaHead{}, stateMeta{}.Files, metaTail{}} {
		ty := reflect.TypeOf(v)
		if ty.Kind() != reflect.Struct {
			f, _ := reflect.TypeOf(stateMeta{}).FieldByName("Files")
			got = append(got, f)
			continue
		}
		for i := range ty.NumField() {
			got = append(got, ty.Field(i))
		}
	}
	want := reflect.TypeOf(stateMeta{})
	if len(got) != want.NumField() {
		t.Fatalf("parts have %d members, stateMeta %d", len(got), want.NumField())
	}
	for i, f := range got {
		w := want.Field(i)
		if f.Name != w.Name || f.Type != w.Type || f.Tag != w.Tag {
			t.Errorf("member %d: %s %v %q, stateMeta has %s %v %q", i, f.Name, f.Type, f.Tag, w.Name, w.Type, w.Tag)
		}
	}
}

// The assembled meta is json.Marshal's, byte for byte, with and without
// each optional member, and again from the bundle's remembered stamps.
func TestEncodeMetaEqualsMarshal(t *testing.T) {
	files := []RootFiles{{Root: "/r", Prefix: "file::", Files: []FileStamp{{Rel: "a<b>.go", Size: 3, MTimeNS: 9}, {Rel: "é.py", MTimeNS: 1}},
		Dirs: []FileStamp{{Rel: "d", MTimeNS: 2}}, RunKey: "k", Nodes: 4, Edges: 5}}
	for i, m := range []stateMeta{
		{},
		{Format: 1, Save: 2, Stamp: "save-2-journal-0", SavedAt: time.Date(2026, 11, 30, 7, 0, 0, 5, time.UTC), Roots: []Root{}},
		{Format: 1, Roots: []Root{{Path: "/r"}}, JournalSeq: 7, IngestSeq: 3, Feedback: []plasticity.FeedbackRecord{{}}, Files: files},
		{Format: 1, Files: files, QueryMemory: []plasticity.QueryRecord{{}}},
		{Format: 1, Files: files, Commits: "abc"},
		{Format: 1, QueryMemory: []plasticity.QueryRecord{{}}, Commits: "abc"},
	} {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b := &Bundle{Files: m.Files}
		for round := range 2 {
			got, err := encodeMeta(b, m)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("case %d round %d:\n got %s\nwant %s", i, round, got, want)
			}
		}
	}
}

// A save's meta allocates about its own size once the bundle's stamps
// are encoded: json.Marshal of the whole grew a buffer to about twice
// the document and copied it out.
func TestEncodeMetaAllocatesItsSize(t *testing.T) {
	rf := RootFiles{Root: "/r", Prefix: "file::"}
	for i := range 20000 {
		rf.Files = append(rf.Files, FileStamp{Rel: fmt.Sprintf("pkg%d/file%d.go", i/50, i), Size: int64(i), MTimeNS: 1_700_000_000_000_000_000 + int64(i)})
	}
	m := stateMeta{Format: 1, Stamp: "s", Roots: []Root{}, Files: []RootFiles{rf}}
	b := &Bundle{Files: m.Files}
	if _, err := encodeMeta(b, m); err != nil { // the bundle's stamps, once
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, err := encodeMeta(b, m)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(out))*5/4 {
		t.Errorf("a %d-byte meta allocated %d bytes", len(out), alloc)
	}
}
