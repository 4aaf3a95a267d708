package extref

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/workspace"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		name, rel, src string
		want           []Ref
	}{
		{"python paths and urls", "app/settings.py", `import os
DATA = "/var/lib/app/data.db"
ROUTE = "/api/users"
SIBLING = "../../shared/schema.json"
INSIDE = "../app/local.txt"
HOME = "~/.config/app.toml"
CACHE = "$XDG_CACHE_HOME/app"
URL = "https://api.example.com/v1?x=1"
WIN = "C:\\Program Files\\App"
`, []Ref{
			{Line: 1, Kind: Import, Value: "os", Key: "os", Ecosystem: "python", Stdlib: true},
			{Line: 2, Kind: AbsolutePath, Value: "/var/lib/app/data.db", Key: "/var"},
			{Line: 4, Kind: ParentEscape, Value: "../../shared/schema.json", Key: "../shared"},
			{Line: 6, Kind: HomePath, Value: "~/.config/app.toml", Key: "~"},
			{Line: 7, Kind: EnvPath, Value: "$XDG_CACHE_HOME/app", Key: "$XDG_CACHE_HOME"},
			{Line: 8, Kind: URL, Value: "https://api.example.com/v1?x=1", Key: "https://api.example.com"},
			{Line: 9, Kind: AbsolutePath, Value: `C:\\Program Files\\App`, Key: "C:"},
		}},
		{"python imports", "pkg/mod.py", `from . import sibling
from .models import User
from numpy.linalg import norm
import requests, yaml as y
import os.path
from __future__ import annotations
`, []Ref{
			{Line: 3, Kind: Import, Value: "numpy.linalg", Key: "numpy", Ecosystem: "python"},
			{Line: 4, Kind: Import, Value: "requests", Key: "requests", Ecosystem: "python"},
			{Line: 4, Kind: Import, Value: "yaml", Key: "yaml", Ecosystem: "python"},
			{Line: 5, Kind: Import, Value: "os.path", Key: "os", Ecosystem: "python", Stdlib: true},
		}},
		{"go imports", "cmd/main.go", `package main

import "fmt"

import (
	"net/http"
	yaml "gopkg.in/yaml.v3"
	"github.com/spf13/cobra/doc"
	"golang.org/x/sync/errgroup"
	"C"
)

var cfg = "/etc/app/config.yaml"
`, []Ref{
			{Line: 3, Kind: Import, Value: "fmt", Key: "fmt", Ecosystem: "go", Stdlib: true},
			{Line: 6, Kind: Import, Value: "net/http", Key: "net/http", Ecosystem: "go", Stdlib: true},
			{Line: 7, Kind: Import, Value: "gopkg.in/yaml.v3", Key: "gopkg.in/yaml.v3", Ecosystem: "go"},
			{Line: 8, Kind: Import, Value: "github.com/spf13/cobra/doc", Key: "github.com/spf13/cobra", Ecosystem: "go"},
			{Line: 9, Kind: Import, Value: "golang.org/x/sync/errgroup", Key: "golang.org/x/sync", Ecosystem: "go"},
			{Line: 13, Kind: AbsolutePath, Value: "/etc/app/config.yaml", Key: "/etc"},
		}},
		{"js imports", "web/src/app.ts", `import React from 'react';
import { a } from "@scope/pkg/sub";
import './styles.css';
const fs = require('node:fs');
const p = require("path");
const lazy = import("lodash/fp");
import {
  b,
} from 'zod';
`, []Ref{
			{Line: 1, Kind: Import, Value: "react", Key: "react", Ecosystem: "npm"},
			{Line: 2, Kind: Import, Value: "@scope/pkg/sub", Key: "@scope/pkg", Ecosystem: "npm"},
			{Line: 4, Kind: Import, Value: "node:fs", Key: "fs", Ecosystem: "npm", Stdlib: true},
			{Line: 5, Kind: Import, Value: "path", Key: "path", Ecosystem: "npm", Stdlib: true},
			{Line: 6, Kind: Import, Value: "lodash/fp", Key: "lodash", Ecosystem: "npm"},
			{Line: 9, Kind: Import, Value: "zod", Key: "zod", Ecosystem: "npm"},
		}},
		{"rust, jvm, c, ruby", "src/lib.rs", "use std::io;\nuse crate::x;\npub use serde::Serialize;\nextern crate libc;\n", []Ref{
			{Line: 1, Kind: Import, Value: "std", Key: "std", Ecosystem: "cargo", Stdlib: true},
			{Line: 3, Kind: Import, Value: "serde", Key: "serde", Ecosystem: "cargo"},
			{Line: 4, Kind: Import, Value: "libc", Key: "libc", Ecosystem: "cargo"},
		}},
		{"jvm", "src/Main.java", "import java.util.List;\nimport com.google.common.collect.ImmutableList;\nimport static org.junit.Assert.assertEquals;\n", []Ref{
			{Line: 1, Kind: Import, Value: "java.util", Key: "java.util", Ecosystem: "jvm", Stdlib: true},
			{Line: 2, Kind: Import, Value: "com.google.common.collect", Key: "com.google.common", Ecosystem: "jvm"},
			{Line: 3, Kind: Import, Value: "org.junit", Key: "org.junit", Ecosystem: "jvm"},
		}},
		{"c", "src/x.c", "#include <stdio.h>\n#include <boost/asio.hpp>\n#include \"local.h\"\n#include <sys/types.h>\n", []Ref{
			{Line: 1, Kind: Import, Value: "stdio.h", Key: "stdio.h", Ecosystem: "c", Stdlib: true},
			{Line: 2, Kind: Import, Value: "boost/asio.hpp", Key: "boost", Ecosystem: "c"},
			{Line: 4, Kind: Import, Value: "sys/types.h", Key: "sys", Ecosystem: "c", Stdlib: true},
		}},
		{"ruby", "lib/a.rb", "require 'json'\nrequire 'rails'\nrequire_relative 'b'\n", []Ref{
			{Line: 1, Kind: Import, Value: "json", Key: "json", Ecosystem: "ruby", Stdlib: true},
			{Line: 2, Kind: Import, Value: "rails", Key: "rails", Ecosystem: "ruby"},
		}},
		{"markdown words and links", "docs/guide.md", "See [the schema](../../other-repo/schema.md) and /opt/tool/bin.\nClone git@github.com:org/repo.git, then run ~/bin/setup.\n", []Ref{
			{Line: 1, Kind: ParentEscape, Value: "../../other-repo/schema.md", Key: "../other-repo"},
			{Line: 1, Kind: AbsolutePath, Value: "/opt/tool/bin", Key: "/opt"},
			{Line: 2, Kind: URL, Value: "git@github.com:org/repo.git", Key: "git@github.com"},
			{Line: 2, Kind: HomePath, Value: "~/bin/setup", Key: "~"},
		}},
		{"urls with credentials and schemes", "cfg/app.yaml", "db: postgres://user:pw@DB.internal:5432/app\nbucket: s3://my-bucket/prefix/\nlocal: sqlite:///app.db\n", []Ref{
			{Line: 1, Kind: URL, Value: "postgres://user:***@DB.internal:5432/app", Key: "postgres://db.internal:5432"},
			{Line: 2, Kind: URL, Value: "s3://my-bucket/prefix/", Key: "s3://my-bucket"},
			{Line: 3, Kind: URL, Value: "sqlite:///app.db", Key: "sqlite://"},
		}},
		{"not references", "a/b.py", `x = "/api/v1/users"
y = "/%s/%d" % (a, b)
z = "don't"
w = "../b/c.py"
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Scan(tc.rel, []byte(tc.src))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Scan(%s) mismatch (-want +got):\n%s", tc.rel, diff)
			}
		})
	}
}

func TestScanBounds(t *testing.T) {
	var sb strings.Builder
	for range MaxRefs + 50 {
		sb.WriteString(`p = "/etc/x"` + "\n")
	}
	if got := Scan("a.py", []byte(sb.String())); len(got) != MaxRefs {
		t.Errorf("Scan kept %d references, want the cap %d", len(got), MaxRefs)
	}
	long := `x = "/etc/` + strings.Repeat("a", MaxLineBytes) + `"`
	if got := Scan("a.py", []byte(long)); len(got) != 0 {
		t.Errorf("an over-long line's unterminated literal was reported: %v", got)
	}
}

func TestRepoLocal(t *testing.T) {
	files := []string{"backend/auth.py", "backend/__init__.py", "include/lib/util.h", "lib/helper.rb", "src/main/java/com/acme/core/App.java", "pkg/graph/graph.go"}
	ws := &workspace.Info{}
	r := NewRepo(files, ws)
	for _, tc := range []struct {
		ref  Ref
		want bool
	}{
		{Ref{Kind: Import, Ecosystem: "python", Key: "backend", Value: "backend.auth"}, true},
		{Ref{Kind: Import, Ecosystem: "python", Key: "numpy", Value: "numpy"}, false},
		{Ref{Kind: Import, Ecosystem: "c", Key: "lib", Value: "lib/util.h"}, true},
		{Ref{Kind: Import, Ecosystem: "c", Key: "boost", Value: "boost/asio.hpp"}, false},
		{Ref{Kind: Import, Ecosystem: "ruby", Key: "helper", Value: "helper"}, true},
		{Ref{Kind: Import, Ecosystem: "jvm", Key: "com.acme.core", Value: "com.acme.core"}, true},
		{Ref{Kind: Import, Ecosystem: "jvm", Key: "org.junit", Value: "org.junit"}, false},
		{Ref{Kind: Import, Ecosystem: "go", Key: "example.com/m", Value: "example.com/m/pkg/graph"}, false},
		{Ref{Kind: Import, Ecosystem: "npm", Key: "react", Value: "react"}, false},
		{Ref{Kind: URL, Key: "https://x"}, false},
	} {
		if got := r.Local(tc.ref); got != tc.want {
			t.Errorf("Local(%+v) = %v, want %v", tc.ref, got, tc.want)
		}
	}
}

// FuzzScan: any input scans without panicking, within the caps, with
// 1-based lines in order and values no longer than the line.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"import os\n", "x = \"/etc/a\"\n", "import (\n\"a.b/c\"\n)\n", "\"\\", "'", "git@", "https://", "from . import x", "$A/b %B%\\c ~/d ../../e"} {
		f.Add("a.py", []byte(s))
		f.Add("b.go", []byte(s))
		f.Add("c.md", []byte(s))
	}
	f.Fuzz(func(t *testing.T, rel string, data []byte) {
		refs := Scan(rel, data)
		if len(refs) > MaxRefs {
			t.Fatalf("%d references over the cap", len(refs))
		}
		last := 0
		for _, r := range refs {
			if r.Line < last || r.Line < 1 {
				t.Fatalf("line %d after %d", r.Line, last)
			}
			last = r.Line
			if len(r.Value) > MaxLineBytes || r.Kind == "" {
				t.Fatalf("bad reference %+v", r)
			}
			if utf8.ValidString(string(data)) && !utf8.ValidString(r.Value) {
				t.Fatalf("invalid UTF-8 value from valid input: %q", r.Value)
			}
		}
	})
}
