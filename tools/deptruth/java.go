package deptruth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Java is the language name of repos.tsv for Java repositories.
const Java = "java"

// ErrNoJava says the JDK's java launcher is not installed: the Java truth
// (benchmarks/deptruth/javadeps.java, run by javac's own Compiler Tree
// API) cannot run.
var ErrNoJava = errors.New("java not in PATH: the Java ground truth needs a JDK 17+ (apt-get install openjdk-17-jdk-headless)")

// javaOutput is what javadeps.java prints.
type javaOutput struct {
	Files   []string            `json:"files"`
	Skipped map[string]string   `json:"skipped"`
	Edges   map[string][]string `json:"edges"`
	Stats   map[string]any      `json:"stats"`
	Funcs   []string            `json:"funcs"`
	Calls   [][2]string         `json:"calls"`
}

// runJavadeps runs `java javadeps.java root` (javac over the tracked .java
// files with an empty classpath; see the script's header).
func runJavadeps(ctx context.Context, root string, o Options) (*javaOutput, error) {
	java := o.Java
	if java == "" {
		java = "java"
	}
	if _, err := exec.LookPath(java); err != nil {
		return nil, ErrNoJava
	}
	script := o.script("javadeps.java")
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("ground-truth script: %w (pass the directory holding repos.tsv and the scripts)", err)
	}
	cmd := exec.CommandContext(ctx, java, script, root)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s javadeps.java %s: %w: %s", java, root, err, strings.TrimSpace(stderr.String()))
	}
	var out javaOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("javadeps.java: output is not JSON: %w", err)
	}
	return &out, nil
}

// JavaTruth is the file-level truth of the tracked .java files: every
// element javac binds (a type, method, constructor, field, import,
// supertype) declared in another file is a dependency on that file.
func JavaTruth(ctx context.Context, root string, o Options) (*Truth, error) {
	out, err := runJavadeps(ctx, root, o)
	if err != nil {
		return nil, err
	}
	t := NewTruth(Java, out.Files, out.Edges)
	t.Skipped, t.Stats = out.Skipped, out.Stats
	if n, ok := out.Stats["unattributed"].(float64); ok && n > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("javac left %.0f names unattributed (third-party classpath missing)", n))
	}
	return t, nil
}

// JavaCallTruth is the call graph javac binds: for each method invocation
// and constructor call inside a method or constructor of a tracked file,
// the overload javac picked, keyed like m1nd's entity IDs.
func JavaCallTruth(ctx context.Context, root string, o Options) (*CallGraph, error) {
	out, err := runJavadeps(ctx, root, o)
	if err != nil {
		return nil, err
	}
	return javaCallGraph(out), nil
}

func javaCallGraph(out *javaOutput) *CallGraph {
	cg := newCallGraph()
	for _, f := range out.Funcs {
		cg.Funcs[f] = true
	}
	for _, c := range out.Calls {
		cg.Calls[c] = true
	}
	return cg
}
