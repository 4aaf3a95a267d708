package seek

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummarySkipsStarParameters: a Python signature's "*," or "*args"
// line is a parameter, not a block comment's continuation, so a function
// without a docstring has no summary rather than ",".
func TestSummarySkipsStarParameters(t *testing.T) {
	for _, star := range []string{"*,", "*args,", "**kwargs,"} {
		src := []string{"class C:", "    def post(  # type: ignore[override]", "        self,", "        url,", "        " + star, "        json=None,", "    ) -> None:", "        return None"}
		lines := bytes.Split([]byte(strings.Join(src, "\n")), []byte("\n"))
		if got := entitySummary(lines, 1); got != "" {
			t.Errorf("%s: summary %q, want none", star, got)
		}
	}
	block := bytes.Split([]byte("/**\n * Adds two numbers.\n */\nint add(int a, int b) {"), []byte("\n"))
	if got, want := entitySummary(block, 3), "Adds two numbers."; got != want {
		t.Errorf("block comment summary %q, want %q", got, want)
	}
}

// TestSummaryDirectivesAndFields: tool directives are no summary, a
// comment inside a type literal documents a field, and a C# XML doc
// comment reads as its summary's prose.
func TestSummaryDirectivesAndFields(t *testing.T) {
	split := func(s string) [][]byte { return bytes.Split([]byte(s), []byte("\n")) }
	file := split("#!/usr/bin/env npx tsx\n\n/// <reference types=\"node\" />\n\nimport { atom } from 'jotai'\n")
	if got := fileSummary(file); got != "" {
		t.Errorf("file summary %q, want none", got)
	}
	file = split("// eslint-disable-next-line\n// Store holds the atoms. More.\nexport {}\n")
	if got, want := fileSummary(file), "Store holds the atoms."; got != want {
		t.Errorf("file summary %q, want %q", got, want)
	}
	ruby := split("# frozen_string_literal: true\n\n# Rack::Lint validates your application.\nmodule Rack\n")
	if got, want := fileSummary(ruby), "Rack::Lint validates your application."; got != want {
		t.Errorf("ruby file summary %q, want %q", got, want)
	}
	rust := split("/*!\nCrate `walkdir` provides an efficient implementation\nof recursive directory traversal.\n\nMore.\n*/\n\n#![deny(missing_docs)]\n")
	if got, want := fileSummary(rust), "Crate `walkdir` provides an efficient implementation of recursive directory traversal."; got != want {
		t.Errorf("inner block doc summary %q, want %q", got, want)
	}
	cpp := split("#ifndef EMIT_H_62B23520\n#define EMIT_H_62B23520\n\n#if defined(_MSC_VER)\n#pragma once\n#endif\n\n#include <string>\n\nnamespace YAML {\n")
	if got := fileSummary(cpp); got != "" {
		t.Errorf("C++ header summary %q, want none", got)
	}
	cpp = split("#include <cassert>\n\n// Emits a document from parser events.\nnamespace YAML {\n")
	if got, want := fileSummary(cpp), "Emits a document from parser events."; got != want {
		t.Errorf("C++ file summary %q, want %q", got, want)
	}
	lic := split("/*\n * Copyright 2020 The Authors. Licensed under the MIT license.\n */\n\n// Package x reads.\npackage x\n")
	if got, want := fileSummary(lic), "Package x reads."; got != want {
		t.Errorf("after a licence block %q, want %q", got, want)
	}
	tuple := split("type BuildingBlocks = [\n  // store state\n  atomStateMap: AtomStateMap,\n]\n")
	if got := entitySummary(tuple, 0); got != "" {
		t.Errorf("type literal summary %q, want none", got)
	}
	goFn := split("// Add sums two numbers.\n//\n//go:noinline\nfunc Add(a, b int) int {")
	if got, want := entitySummary(goFn, 3), "Add sums two numbers."; got != want {
		t.Errorf("go summary %q, want %q", got, want)
	}
	cs := split("/// <summary>\n/// Adds two <see cref=\"Money\"/> values.\n/// </summary>\n/// <param name=\"a\">The first.</param>\npublic Money Add(Money a, Money b) {")
	if got, want := entitySummary(cs, 4), "Adds two Money values."; got != want {
		t.Errorf("xml doc summary %q, want %q", got, want)
	}
	py := split("def f(\n    # the x\n    x,\n):\n    # Returns x doubled.\n    return 2 * x")
	if got, want := entitySummary(py, 0), "Returns x doubled."; got != want {
		t.Errorf("python summary %q, want %q", got, want)
	}
}

// TestSummaryFirstParagraph: a doc comment's summary ends at its first
// blank line or tag, and a brace body's first comment documents its first
// member, not the type (PHPDoc from guzzle/psr7).
func TestSummaryFirstParagraph(t *testing.T) {
	split := func(s string) [][]byte { return bytes.Split([]byte(s), []byte("\n")) }
	cls := split("/**\n * Server-side HTTP request\n *\n * Extends the Request definition.\n */\nclass ServerRequest extends Request\n{")
	if got, want := entitySummary(cls, 5), "Server-side HTTP request"; got != want {
		t.Errorf("paragraph summary %q, want %q", got, want)
	}
	tags := split("    /**\n     * @param (string|int)[] $keys\n     *\n     * @return string[]\n     */\n    private static function keys(array $keys): array\n    {")
	if got := entitySummary(tags, 5); got != "" {
		t.Errorf("tags-only summary %q, want none", got)
	}
	member := split("final class Message\n{\n    /**\n     * Returns the string representation of an HTTP message.\n     */\n    public static function toString($m): string")
	if got := entitySummary(member, 0); got != "" {
		t.Errorf("class summarised from its first member: %q", got)
	}
	jsdoc := split("/**\n * Formats a date.\n * @param {Date} d the date\n */\nfunction format(d) {")
	if got, want := entitySummary(jsdoc, 4), "Formats a date."; got != want {
		t.Errorf("jsdoc summary %q, want %q", got, want)
	}
}
