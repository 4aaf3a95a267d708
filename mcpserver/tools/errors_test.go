package tools

import (
	"errors"
	"strings"
	"testing"
)

// An error's example is shown as a call of the failing tool unless it
// names another: an example whose arguments the failing tool does not take
// is a bug the tests catch (document_drift once showed ingest's adapter
// and mode under its own name).
func TestErrorExampleFitsItsTool(t *testing.T) {
	tool := &Tool{Name: "document_drift", Params: []Param{{Name: "path", Type: String}}}
	ingestArgs := map[string]any{"path": "/repo", "adapter": "universal"}

	call := asToolError(tool, Errorf("hint", "no document").WithCall("ingest", ingestArgs))
	if call.Example["name"] != "ingest" {
		t.Fatalf("WithCall example named %v, want ingest", call.Example["name"])
	}
	own := asToolError(tool, Errorf("hint", "bad path").WithExample(map[string]any{"path": "docs"}))
	if own.Example["name"] != "document_drift" {
		t.Fatalf("own example named %v, want document_drift", own.Example["name"])
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "[adapter]") {
			t.Fatalf("a foreign example under the tool's name was not caught (recovered %q)", msg)
		}
	}()
	asToolError(tool, errors.Join(Errorf("hint", "no document").WithExample(ingestArgs)))
}
