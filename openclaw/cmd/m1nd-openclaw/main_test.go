package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseArgsLimits(t *testing.T) {
	var log strings.Builder
	logf := func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }
	cfg, code := parseArgs([]string{"--max-connections", "600", "--idle-timeout=2m", "--read-timeout", "500ms",
		"--write-timeout", "1s", "--max-request-bytes", "1048576", "--max-buffered-bytes=4194304"}, io.Discard, logf)
	b := cfg.bridge
	if code != -1 || b.MaxConnections != 600 || b.IdleTimeout != 2*time.Minute || b.ReadTimeout != 500*time.Millisecond ||
		b.WriteTimeout != time.Second || b.MaxRequestBytes != 1<<20 || b.MaxBufferedBytes != 4<<20 {
		t.Errorf("code %d, bridge %+v, log %s", code, b, log.String())
	}

	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--max-connections", "0"}, "--max-connections needs a positive whole number"},
		{[]string{"--max-connections", "many"}, "--max-connections needs a positive whole number"},
		{[]string{"--idle-timeout", "5"}, "--idle-timeout needs a positive duration"},
		{[]string{"--read-timeout", "-1s"}, "--read-timeout needs a positive duration"},
		{[]string{"--write-timeout"}, "--write-timeout needs a value"},
		{[]string{"--max-request-bytes", "1048576", "--max-buffered-bytes", "1024"}, "--max-buffered-bytes (1024) must be at least --max-request-bytes"},
	} {
		log.Reset()
		if _, code := parseArgs(tc.args, io.Discard, logf); code != 2 || !strings.Contains(log.String(), tc.says) {
			t.Errorf("%v: code %d, log %q", tc.args, code, log.String())
		}
	}

	var help strings.Builder
	if _, code := parseArgs([]string{"--help"}, &help, logf); code != 0 {
		t.Errorf("help: %d", code)
	}
	for _, flag := range []string{"--max-connections", "--idle-timeout", "--read-timeout", "--write-timeout", "--max-request-bytes", "--max-buffered-bytes"} {
		if !strings.Contains(help.String(), flag) {
			t.Errorf("usage does not mention %s", flag)
		}
	}
}
