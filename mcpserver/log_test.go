package mcpserver

import (
	"fmt"
	"log/slog"
	"slices"
	"testing"
)

// stderr keeps the "[m1nd] message" lines of before (logf adds the
// prefix), with attributes after the message; debug records stay off it.
func TestLogStderrLines(t *testing.T) {
	var lines []string
	l := NewLog(func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) })
	l.Printf("server ready: %d nodes", 3)
	l.Logger().Debug("tools/call", "tool", "health")
	l.Logger().With("session", "a").WithGroup("call").Warn("slow", "tool", "seek")
	want := []string{"server ready: 3 nodes", "WARN: slow session=a call.tool=seek"}
	if !slices.Equal(lines, want) {
		t.Fatalf("stderr lines %q, want %q", lines, want)
	}
	if l.Logger().Enabled(t.Context(), slog.LevelDebug) {
		t.Errorf("debug enabled with no client attached")
	}
}
