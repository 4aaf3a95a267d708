package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, filepath.Join(t.TempDir(), "shop.json")); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	t.Log("\n" + got)
	for _, want := range []string{
		"graph: 7 nodes, 8 edges",
		"activate \"payment\":\n  payments ",
		"impact of changing ledger:\n  payments           hop 1\n",
		"  checkout           hop 2\n  gateway            hop 3\n",
		"saved and loaded shop.json: 7 nodes, 8 edges",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
