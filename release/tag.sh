#!/usr/bin/env bash
# Release: tag every module whose version in release/versions.txt has no tag
# yet (DIR/VERSION, e.g. core/v0.1.0), in dependency order, on a release
# commit that completes the go.sum files with the hashes of the sibling
# versions they require. Run by .github/workflows/release.yml on a clean
# checkout with tags (fetch-depth: 0); it never moves a branch (the release
# commit is made on a detached HEAD and reached through its tags). It prints
# the new tags, one a line, on stdout; pushing them is the caller's job.
#
#   release/tag.sh            tag
#   release/tag.sh --check    only say what would be tagged, and fail when a
#                             released module changed without a version bump
#
# Rules it enforces:
#   - a module whose tag exists must not have changed since (go.sum aside):
#     changing a module means a new version in versions.txt;
#   - each version to tag has a "## DIR VERSION" section in CHANGELOG.md;
#   - the modules build outside the workspace (release/modcheck.sh ran in CI).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
MODPATH=github.com/m1nd-go/m1nd
CHECK=0
[ "${1:-}" = --check ] && CHECK=1

fail() { echo "release/tag.sh: $*" >&2; exit 1; }
log() { echo "$*" >&2; }

[ -z "$(git status --porcelain)" ] || fail "the work tree is not clean"

mapfile -t ENTRIES < <(awk '!/^[[:space:]]*(#|$)/ { print $1, $2 }' release/versions.txt)
TO_TAG=()
for e in "${ENTRIES[@]}"; do
  read -r m v <<<"$e"
  tag=$m/$v
  if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    git diff --quiet "$tag" HEAD -- "$m" ":(exclude)$m/go.sum" ||
      fail "$m changed since $tag: give it a new version in release/versions.txt (and a CHANGELOG.md section)"
    log "$tag: released, unchanged"
  else
    grep -Eq "^## $m $v( |$)" CHANGELOG.md || fail "CHANGELOG.md has no \"## $m $v\" section"
    TO_TAG+=("$m")
    log "$tag: to tag"
  fi
done
[ ${#TO_TAG[@]} -gt 0 ] || { log "nothing to tag"; exit 0; }
[ "$CHECK" = 1 ] && exit 0

version_of() { awk -v m="$1" '$1 == m { print $2 }' release/versions.txt; }
in_to_tag() { local x; for x in "${TO_TAG[@]}"; do [ "$x" = "$1" ] && return 0; done; return 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/m1nd-release.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
MODCACHE=$(go env GOMODCACHE)
UPSTREAM=$(go env GOPROXY)
(cd tools && GOWORK="$ROOT/go.work" go build -o "$WORK/m1nd-modproxy" ./cmd/m1nd-modproxy)

git checkout -q --detach

# In dependency order: pack every module (released ones from their tags),
# then let go mod tidy write the sibling hashes into the next module's
# go.sum, so that module's zip — and every hash of it — is final.
for e in "${ENTRIES[@]}"; do
  read -r m _ <<<"$e"
  in_to_tag "$m" || continue
  rm -rf "$WORK/proxy"
  "$WORK/m1nd-modproxy" -root "$ROOT" -tags -o "$WORK/proxy" >/dev/null 2>&1
  for d in "$MODCACHE/$MODPATH" "$MODCACHE/cache/download/$MODPATH"; do
    if [ -e "$d" ]; then chmod -R u+w "$d" && rm -rf "$d"; fi
  done
  (cd "$m" && GOWORK=off GOPROXY="file://$WORK/proxy,$UPSTREAM" GONOSUMDB="$MODPATH" \
    GOFLAGS=-mod=mod GODEBUG=goindex=0 go mod tidy)
  git diff --quiet -- "$m/go.mod" || fail "$m/go.mod is not tidy outside the workspace (release/modcheck.sh tidy)"
done

msg="release:"
for m in "${TO_TAG[@]}"; do msg="$msg $m $(version_of "$m"),"; done
msg=${msg%,}
if ! git diff --quiet; then
  git add -- '*/go.sum'
  git commit -q -m "$msg" -m "go.sum files carry the hashes of the sibling versions they require (main never does: they change with every commit until tagged)."
fi
for m in "${TO_TAG[@]}"; do
  v=$(version_of "$m")
  git tag -a "$m/$v" -m "$MODPATH/$m $v"
  echo "$m/$v"
done
log "tagged $(git rev-parse --short HEAD): $msg"
