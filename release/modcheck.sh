#!/usr/bin/env bash
# Each module the way a user of it gets it: outside the workspace (GOWORK=off),
# its siblings resolved through a local module proxy built from this tree at
# the versions in release/versions.txt, exactly as they will be once tagged.
#
#   release/modcheck.sh          check (CI): proxy, tidy, build, vet, tests,
#                                go install …@version from the proxy, run it
#   release/modcheck.sh tidy     write every go.mod/go.sum as `go mod tidy`
#                                wants them outside the workspace
#
# go.sum files never carry lines for github.com/m1nd-go/m1nd/* modules: a
# sibling's hash is the hash of a zip of the working tree, which changes with
# every commit to it until it is tagged. The check keeps the committed files
# untouched (-modfile copies) and GONOSUMDB names our modules, so their
# hashes come from the proxy; the release workflow writes them into the
# tagged commit (release/tag.sh).
#
# Environment: M1ND_MODCHECK_DIR (work directory, default a new temp dir),
# M1ND_MODCHECK_TEST (modules whose tests run outside the workspace; default
# "core examples/embed" — the others are tested by `make test` in the
# workspace, with the same sources), M1ND_MODCHECK_INSTALL=0 skips go install.
#
# Our modules are removed from the module cache first (only they: nothing of
# github.com/m1nd-go is published, so every copy there came from a proxy like
# this one, possibly of an older tree at the same version), and the go
# command's module index is off (GODEBUG=goindex=0: it keys a cached module by
# its directory only). The rest of the
# module cache is kept, so cgo packages compiled for `make build` or an
# earlier check are reused from the build cache (their cache keys include
# their directory in the module cache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
MODE=${1:-check}
MODULES="core ingest mcpserver openclaw tools examples/embed"
TEST_MODULES=${M1ND_MODCHECK_TEST:-core examples/embed}
if [ -n "${M1ND_MODCHECK_DIR:-}" ]; then
  WORK=$M1ND_MODCHECK_DIR
else
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/m1nd-modcheck.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
fi
PROXY=$WORK/proxy
MODPATH=github.com/m1nd-go/m1nd
mkdir -p "$WORK"

t0=$(date +%s)
step() { printf '== %s (%ss)\n' "$*" "$(($(date +%s) - t0))"; }
fail() { echo "modcheck: $*" >&2; exit 1; }

version_of() { awk -v m="$1" '$1 == m { print $2 }' release/versions.txt; }

# --- the repository's own rules -------------------------------------------
step "consistency: versions.txt, go.mod requirements, go.work replacements"
for m in $MODULES; do
  [ -f "$m/go.mod" ] || fail "$m/go.mod missing"
  if grep -q '^replace\|^\s*replace' "$m/go.mod"; then
    fail "$m/go.mod has a replace directive: released go.mods must not point at the file system (go.work covers local development)"
  fi
  if [ "$MODE" != tidy ] && [ -f "$m/go.sum" ] && grep -q "^$MODPATH/" "$m/go.sum"; then
    fail "$m/go.sum has lines for $MODPATH/* (they change with every commit; see the top of release/modcheck.sh): remove them or run release/modcheck.sh tidy"
  fi
  # every sibling requirement names the version versions.txt releases, and
  # go.work points that version at the working tree
  while read -r dep ver; do
    sib=${dep#"$MODPATH"/}
    want=$(version_of "$sib")
    [ -n "$want" ] || fail "$m requires $dep, which release/versions.txt does not list"
    [ "$ver" = "$want" ] || fail "$m requires $dep $ver but release/versions.txt releases $want: update $m/go.mod (and go.work's replace)"
    grep -Eq "^\s*(replace\s+)?$dep $ver => \./$sib\s*$" go.work ||
      fail "go.work lacks \`replace $dep $ver => ./$sib\` (the workspace needs it to resolve $m's requirement)"
  done < <(awk -v p="$MODPATH/" '$1 == "require" && index($2, p) == 1 { print $2, $3; next }
                                  /^require \(/ { r = 1; next } r && /^\)/ { r = 0 }
                                  r && index($1, p) == 1 { print $1, $2 }' "$m/go.mod")
done

out=$(gofmt -l examples)
[ -z "$out" ] || fail "gofmt needed: $out"

# --- the proxy ------------------------------------------------------------
step "module proxy of the working tree at release/versions.txt -> $PROXY"
rm -rf "$PROXY"
(cd tools && GOWORK="$ROOT/go.work" go run ./cmd/m1nd-modproxy -root "$ROOT" -versions release/versions.txt -o "$PROXY") >"$WORK/sums.txt"
sed 's/^/   /' "$WORK/sums.txt"

MODCACHE=$(go env GOMODCACHE)
for d in "$MODCACHE/$MODPATH" "$MODCACHE/cache/download/$MODPATH"; do
  if [ -e "$d" ]; then chmod -R u+w "$d" && rm -rf "$d"; fi
done

# The go command indexes modules in the module cache by their directory
# alone (modindex, assuming they never change); ours change at a fixed
# version, so the index is off for everything below.
export GODEBUG="goindex=0${GODEBUG:+,$GODEBUG}"

UPSTREAM=$(go env GOPROXY)
case "$UPSTREAM" in off | "") UPSTREAM=off ;; esac
export GOWORK=off
export GOPROXY="file://$PROXY,$UPSTREAM"
export GONOSUMDB="$MODPATH${GONOSUMDB:+,$GONOSUMDB}"
export GOFLAGS="$(go env GOFLAGS)"

# --- every module on its own ----------------------------------------------
for m in $MODULES; do
  tmp=$WORK/mod/$m
  mkdir -p "$tmp"
  cp "$m/go.mod" "$tmp/go.mod"
  if [ -f "$m/go.sum" ]; then cp "$m/go.sum" "$tmp/go.sum"; else : >"$tmp/go.sum"; fi
  step "$m: go mod tidy (GOWORK=off)"
  (cd "$m" && go mod tidy -modfile="$tmp/go.mod")
  grep -v "^$MODPATH/" "$tmp/go.sum" >"$tmp/go.sum.public" || true
  if [ "$MODE" = tidy ]; then
    cp "$tmp/go.mod" "$m/go.mod"
    if [ -s "$tmp/go.sum.public" ] || [ -f "$m/go.sum" ]; then cp "$tmp/go.sum.public" "$m/go.sum"; fi
    continue
  fi
  if ! diff -u "$m/go.mod" "$tmp/go.mod" || ! diff -u <(cat "$m/go.sum" 2>/dev/null) "$tmp/go.sum.public"; then
    fail "$m: go.mod/go.sum are not tidy outside the workspace (above: - committed, + wanted); run release/modcheck.sh tidy"
  fi
  step "$m: go build ./... && go vet ./... (GOWORK=off)"
  (cd "$m" && go build -o /dev/null -modfile="$tmp/go.mod" ./... && go vet -modfile="$tmp/go.mod" ./...)
  case " $TEST_MODULES " in
    *" $m "*)
      step "$m: go test ./... (GOWORK=off)"
      (cd "$m" && go test -count=1 -modfile="$tmp/go.mod" ./...)
      ;;
  esac
done
[ "$MODE" = tidy ] && { step "tidy: done"; exit 0; }

step "examples/embed: go run . (GOWORK=off, core from the proxy)"
(cd examples/embed && go run -modfile="$WORK/mod/examples/embed/go.mod" .) | sed 's/^/   /'

# --- go install, as a user would --------------------------------------------
if [ "${M1ND_MODCHECK_INSTALL:-1}" != 0 ]; then
  V=$(version_of mcpserver)
  OV=$(version_of openclaw)
  GP=$WORK/gopath
  rm -rf "$GP" && mkdir -p "$GP"
  step "go install $MODPATH/mcpserver/cmd/m1nd-mcp@$V into a fresh GOPATH, outside the repository"
  (cd "$WORK" && env GOPATH="$GP" GOBIN="$GP/bin" GOMODCACHE="$MODCACHE" GOFLAGS= \
    go install "$MODPATH/mcpserver/cmd/m1nd-mcp@$V")
  step "go install $MODPATH/openclaw/cmd/m1nd-openclaw@$OV"
  (cd "$WORK" && env GOPATH="$GP" GOBIN="$GP/bin" GOMODCACHE="$MODCACHE" GOFLAGS= \
    go install "$MODPATH/openclaw/cmd/m1nd-openclaw@$OV")

  TV=$(version_of tools)
  step "go install $MODPATH/tools/cmd/m1nd@$TV"
  (cd "$WORK" && env GOPATH="$GP" GOBIN="$GP/bin" GOMODCACHE="$MODCACHE" GOFLAGS= \
    go install "$MODPATH/tools/cmd/m1nd@$TV")

  step "run the installed binaries"
  got=$("$GP/bin/m1nd-mcp" --version)
  echo "   $got"
  [ "$got" = "m1nd-mcp $V" ] || fail "m1nd-mcp --version says \"$got\", want \"m1nd-mcp $V\""
  got=$("$GP/bin/m1nd-openclaw" --version)
  echo "   $got"
  [ "$got" = "m1nd-openclaw $OV" ] || fail "m1nd-openclaw --version says \"$got\", want \"m1nd-openclaw $OV\""
  got=$("$GP/bin/m1nd" version)
  echo "   $got"
  [ "$got" = "m1nd $TV (tools from m1nd-mcp $V)" ] || fail "m1nd version says \"$got\", want \"m1nd $TV (tools from m1nd-mcp $V)\""
  # one MCP handshake over stdio (line framing): the server answers with its
  # name and version, then exits at end of input
  init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"modcheck","version":"0"}}}'
  resp=$(cd "$WORK" && printf '%s\n' "$init" | timeout 60 "$GP/bin/m1nd-mcp" 2>"$WORK/m1nd-mcp.stderr" | head -n 1) || true
  echo "   ${resp:0:200}"
  case "$resp" in
    *'"id":1'*'"serverInfo"'*"\"version\":\"$V\""*) ;;
    *) cat "$WORK/m1nd-mcp.stderr" >&2; fail "the installed m1nd-mcp did not answer initialize with its version" ;;
  esac
fi
step "ok"
