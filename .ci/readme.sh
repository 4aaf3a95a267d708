#!/usr/bin/env bash
# Runs every command README.md shows, as written (tools/cli's
# TestReadmeCommandsRunInCI fails when a README command is missing here).
# Two are run elsewhere by .ci/run itself: `make test` and, for the
# `go install …@v0.1.0` line, `make modcheck` (against a local module
# proxy of this tree, since the modules are not published yet).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run CMD: print the README line, then run it exactly as written.
run() {
  echo "[readme] \$ $1" >&2
  eval "$1"
}

# Set up, and Benchmarks.
run 'make build'
run 'python3 benchmarks/corpora/corpora.py' || [ $? -eq 1 ]   # 1: built, fingerprints of another toolchain

# Modules: install from a checkout, then use what was installed.
export GOBIN="$work/gobin"
run 'go install ./mcpserver/cmd/m1nd-mcp ./openclaw/cmd/m1nd-openclaw ./tools/cmd/m1nd'
export PATH="$GOBIN:$PATH"
m1nd-mcp --version

# The command line, in a repository of its own.
repo="$work/app"
mkdir -p "$repo/pkg"
cat > "$repo/go.mod" <<'GO'
module example.com/app

go 1.22
GO
cat > "$repo/main.go" <<'GO'
package main

import "example.com/app/pkg"

func main() { println(pkg.Validate("ann", "secret")) }
GO
cat > "$repo/pkg/auth.go" <<'GO'
// Package pkg validates user credentials.
package pkg

var users = map[string]string{"ann": "secret"}

// Validate checks a user's credentials against the store.
func Validate(user, password string) bool { return lookup(user) == password }

func lookup(user string) string { return users[user] }
GO
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=ci -c user.email=ci@example.com commit -qm "app"
(
  cd "$repo"
  run 'm1nd ingest'
  run 'm1nd seek "validate user credentials"'
  run 'm1nd impact pkg/auth.go'
  run 'm1nd why main.go pkg/auth.go'
  run 'm1nd search lookup --mode regex'
  run 'm1nd call learn --query auth --feedback correct --node_ids pkg/auth.go'
  run 'm1nd help impact'
  run 'm1nd doctor' || [ $? -eq 1 ]   # 1: something needs attention (documented)
  run 'm1nd serve' </dev/null
  test -z "$(git status --porcelain --untracked-files=all)" || { echo "[readme] .m1nd shows in git status" >&2; exit 1; }
)

# In a browser: serve mode on this repository, until its UI and health answer.
run 'bin/m1nd-mcp --serve --open --runtime-dir .m1nd --ingest .' &
served=$!
for _ in $(seq 600); do
  curl -fsS http://127.0.0.1:1337/api/health >/dev/null 2>&1 && curl -fsS http://127.0.0.1:1337/ | grep -q '<title>m1nd' && break
  sleep 0.5
done
curl -fsS http://127.0.0.1:1337/api/health | grep -q node_count || { echo "[readme] serve mode did not answer" >&2; exit 1; }
pkill -INT -f 'm1nd-mcp --serve --open --runtime-dir .m1nd' && wait $served

# Set up: the server on this repository, stopped by end of input.
run 'make run' </dev/null
echo "[readme] every README command ran" >&2
