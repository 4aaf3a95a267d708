#!/usr/bin/env bash
# Build the release binaries for one platform the way a user installs them:
# `go install <module>/cmd/<name>@<version>` through a local module proxy of
# this checkout (released modules packed from their tags), so the binaries
# carry their module versions (--version reads debug.ReadBuildInfo). Then
# one archive per platform with LICENSE, README.md and CHANGELOG.md.
#
#   GOOS=darwin GOARCH=amd64 CC="clang -arch x86_64" release/build.sh dist/
#
# cgo is required (tree-sitter grammars are C): build on a native runner of
# the platform, or name a cross compiler in CC (clang -arch on macOS for the
# other Apple architecture; for Linux, e.g. CC="zig cc -target
# aarch64-linux-gnu.2.31").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=$(mkdir -p "${1:?usage: release/build.sh OUTDIR}" && cd "$1" && pwd)
MODPATH=github.com/m1nd-go/m1nd
GOOS=${GOOS:-$(go env GOOS)}
GOARCH=${GOARCH:-$(go env GOARCH)}
export GOOS GOARCH CGO_ENABLED=1

version_of() { awk -v m="$1" '$1 == m { print $2 }' release/versions.txt; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/m1nd-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
(cd tools && GOOS= GOARCH= CGO_ENABLED=0 GOWORK="$ROOT/go.work" \
  go run ./cmd/m1nd-modproxy -root "$ROOT" -tags -o "$WORK/proxy" >/dev/null)

# name module: the binaries of a release
BINARIES="m1nd-mcp:mcpserver m1nd-openclaw:openclaw m1nd-openclaw-client:openclaw"
[ -d tools/cmd/m1nd ] && BINARIES="$BINARIES m1nd:tools"

# Our modules come only from the proxy: out of the module cache with them
# (and off with the module index, which trusts a cached module's directory).
MODCACHE=$(go env GOMODCACHE)
for d in "$MODCACHE/$MODPATH" "$MODCACHE/cache/download/$MODPATH"; do
  if [ -e "$d" ]; then chmod -R u+w "$d" && rm -rf "$d"; fi
done
GP=$WORK/gopath
for b in $BINARIES; do
  name=${b%%:*} mod=${b#*:}
  v=$(version_of "$mod")
  echo "go install $MODPATH/$mod/cmd/$name@$v ($GOOS/$GOARCH)" >&2
  (cd "$WORK" && env -u GOBIN GOWORK=off GOPATH="$GP" GOMODCACHE="$MODCACHE" GOFLAGS=-trimpath \
    GOPROXY="file://$WORK/proxy,$(go env GOPROXY)" GONOSUMDB="$MODPATH" GODEBUG=goindex=0 \
    go install "$MODPATH/$mod/cmd/$name@$v")
done

# go install puts cross-compiled binaries under bin/GOOS_GOARCH
bindir=$GP/bin
[ -d "$bindir/${GOOS}_${GOARCH}" ] && bindir=$bindir/${GOOS}_${GOARCH}
stage=$WORK/m1nd_$(version_of mcpserver)_${GOOS}_${GOARCH}
mkdir -p "$stage"
for b in $BINARIES; do cp "$bindir/${b%%:*}" "$stage/"; done
cp LICENSE README.md CHANGELOG.md "$stage/"
tar -C "$WORK" -czf "$OUT/$(basename "$stage").tar.gz" "$(basename "$stage")"
echo "$OUT/$(basename "$stage").tar.gz"
