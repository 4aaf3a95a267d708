package localize

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// FindServer resolves the m1nd-mcp binary the benchmark harnesses drive to
// an absolute path: the -server flag's value when given, else m1nd-mcp
// beside the running harness (make build puts them together), else on PATH.
func FindServer(flagVal string) (string, error) {
	if flagVal != "" {
		p, err := exec.LookPath(flagVal)
		if err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "m1nd-mcp")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("m1nd-mcp")
	if err != nil {
		return "", fmt.Errorf("m1nd-mcp not found: build it (make build) and pass -server bin/m1nd-mcp")
	}
	return filepath.Abs(p)
}

// WriteReports writes a harness's markdown summary to mdPath and v as
// indented JSON to jsonPath; an empty path skips that file.
func WriteReports(md string, v any, mdPath, jsonPath string) error {
	if mdPath != "" {
		if err := os.WriteFile(mdPath, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if jsonPath != "" {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
