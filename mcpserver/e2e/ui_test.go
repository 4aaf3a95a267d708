package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
)

// TestUIInABrowser loads serve mode's page in Debian's chromium (driven by
// puppeteer-core from e2e/npm; .ci/run installs both): it searches, opens
// the first result's graph and checks the canvas drew nodes, then the
// impact rings and the file; the live panel lists the page's own calls;
// another agent's reads appear as its trail, one node per file in order.
// Screenshots land in the test's temp dir (M1ND_UI_SHOTS keeps them
// elsewhere, e.g. docs/ for the README's).
func TestUIInABrowser(t *testing.T) {
	dir := npmClient(t, "puppeteer-core")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the browser test: %v (.ci/run installs chromium)", err)
		}
		t.Skipf("no chromium: %v", err)
	}
	repo := fixture.Write(t)
	p := start(t, nil, "--serve", "--port", "0", "--runtime-dir", t.TempDir(), "--ingest", repo)
	base := httpURL(t, p)
	shots := t.TempDir()
	if d := os.Getenv("M1ND_UI_SHOTS"); d != "" {
		shots, _ = filepath.Abs(d)
	}
	out := runNode(t, dir, []string{"CHROMIUM=" + chromium}, "ui.mjs", base+"/", shots)
	var sum struct {
		LoadMs  int      `json:"load_ms"`
		Results []string `json:"results"`
		Graph   struct {
			Nodes, Edges, Pixels int
		} `json:"graph"`
		Impact   string   `json:"impact"`
		File     string   `json:"file"`
		Partners []string `json:"partners"`
		Layers   []string `json:"layers"`
		Live     []string `json:"live"`
		Trail    struct {
			FilesRead    []string `json:"files_read"`
			Nodes, Edges int
			Status       string
		} `json:"trail"`
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("browser output %q: %v", out, err)
	}
	t.Logf("UI: loaded in %d ms; %d results; graph %d nodes %d edges, %d pixels drawn; screenshots in %s", sum.LoadMs, len(sum.Results), sum.Graph.Nodes, sum.Graph.Edges, sum.Graph.Pixels, shots)
	if len(sum.Results) == 0 || !strings.Contains(strings.Join(sum.Results, " "), "hash_password") {
		t.Errorf("search results: %v", sum.Results)
	}
	if sum.Graph.Nodes < 3 || sum.Graph.Edges == 0 || sum.Graph.Pixels < 200 {
		t.Errorf("graph view: %+v (the canvas must show the nodes)", sum.Graph)
	}
	if !strings.Contains(sum.Impact, "affected") {
		t.Errorf("impact view: %q", sum.Impact)
	}
	if !strings.Contains(sum.File, "def ") && !strings.Contains(sum.File, "import") {
		t.Errorf("file view: %q", sum.File)
	}
	if len(sum.Partners) == 0 || len(sum.Layers) == 0 {
		t.Errorf("partners %v, layers %v", sum.Partners, sum.Layers)
	}
	if !strings.Contains(strings.Join(sum.Live, "\n"), "ui → seek") {
		t.Errorf("live panel: %v", sum.Live)
	}
	if n := len(sum.Trail.FilesRead); n == 0 || sum.Trail.Nodes != n || sum.Trail.Edges != n-1 || !strings.Contains(sum.Trail.Status, "trail of claude") {
		t.Errorf("trail of the agent that read %v: %+v", sum.Trail.FilesRead, sum.Trail)
	}
	if len(sum.Errors) > 0 {
		t.Errorf("the page logged errors: %v", sum.Errors)
	}
}
