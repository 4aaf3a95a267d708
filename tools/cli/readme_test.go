package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeElsewhere are README commands .ci/run runs itself rather than
// .ci/readme.sh: the test command, and the published-version install,
// which make modcheck runs against a local module proxy of this tree.
var readmeElsewhere = map[string]string{
	"make test": "make test",
	"go install github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp@v0.1.0": "make modcheck",
}

// TestReadmeCommandsRunInCI: every shell command README.md shows (its sh
// blocks and the command-line examples) is run by CI as written: it is
// a `run '…'` line of .ci/readme.sh, or one of readmeElsewhere whose
// runner .ci/run calls.
func TestReadmeCommandsRunInCI(t *testing.T) {
	top := filepath.Join("..", "..")
	cmds := readmeCommands(t, filepath.Join(top, "README.md"))
	if len(cmds) < 10 {
		t.Fatalf("found %d commands in README.md; the parser lost them: %q", len(cmds), cmds)
	}
	script, err := os.ReadFile(filepath.Join(top, ".ci", "readme.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(top, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	ciLines := strings.Split(string(ci), "\n")
	hasLine := func(want string) bool {
		return slices.ContainsFunc(ciLines, func(l string) bool { return strings.TrimSpace(l) == want })
	}
	if !hasLine("bash .ci/readme.sh") {
		t.Error(".ci/run does not call bash .ci/readme.sh")
	}
	for _, c := range cmds {
		if by, ok := readmeElsewhere[c]; ok {
			if !hasLine(by) {
				t.Errorf("README's %q is run by %q, which .ci/run does not call", c, by)
			}
			continue
		}
		if !strings.Contains(string(script), "run '"+c+"'") {
			t.Errorf("README shows %q, but .ci/readme.sh does not run it as written (add: run '%s')", c, c)
		}
	}
}

// readmeCommands are the commands of README's ```sh blocks and of its
// indented "m1nd …" examples, without trailing comments.
func readmeCommands(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	inSh := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && strings.TrimPrefix(line, "```") == "sh"
			continue
		case inSh:
		case strings.HasPrefix(line, "    m1nd "):
		default:
			continue
		}
		cmd, _, _ := strings.Cut(line, " #")
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			out = append(out, cmd)
		}
	}
	return out
}
