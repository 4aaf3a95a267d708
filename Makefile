# m1nd — one workspace, five modules. `go test ./...` does not cross module
# boundaries, so every target iterates the modules listed in go.work.
MODULES := core ingest mcpserver openclaw tools
GO      ?= go
BIN     := $(CURDIR)/bin
REPO    ?= $(CURDIR)

.PHONY: test check-cgo fmt-check vet race build run bench clean docs

## test: gofmt check, go vet and go test -race over every module
test: check-cgo fmt-check vet race

fmt-check:
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $$($(GO) list -f '{{.Dir}}/...' -m)

race:
	$(GO) test -race -count=1 -timeout 30m $$($(GO) list -f '{{.Dir}}/...' -m)

## build: the binaries into ./bin
# Recipes are silent and build output goes to stderr: an MCP client may
# launch `make run` directly, and stdout must carry only protocol messages.
# One `go build -v` over the workspace: its package lines become progress
# (the cold build is minutes of cgo, and silence looks like a hang).
BUILD_PKGS := ./mcpserver/cmd/... ./openclaw/cmd/... ./tools/cmd/...
build: check-cgo
	@mkdir -p $(BIN)
	@n=$$($(GO) list -deps -f '{{if .CgoFiles}}{{.ImportPath}}{{end}}' $(BUILD_PKGS) 2>/dev/null | grep -c tree-sitter); \
	echo "[make] building m1nd-mcp, m1nd-openclaw and the tools into $(BIN)" >&2; \
	echo "[make] a first build compiles $$n tree-sitter packages (C, with cgo): several minutes on 2 cores;" >&2; \
	echo "[make] later builds reuse Go's build cache ($$($(GO) env GOCACHE)) and compile only what changed" >&2; \
	start=$$(date +%s); \
	{ $(GO) build -v -o $(BIN)/ $(BUILD_PKGS) 2>&1; echo "m1nd-build-exit $$?"; } | { \
		pk=0; ts=0; rc=1; \
		while IFS= read -r l; do case "$$l" in \
			"m1nd-build-exit "*) rc=$${l#m1nd-build-exit } ;; \
			""|*[[:space:]:#]*) printf '%s\n' "$$l" ;; \
			*tree-sitter*) pk=$$((pk+1)); ts=$$((ts+1)); echo "[make]   tree-sitter $$ts/$$n  $$l" ;; \
			*) pk=$$((pk+1)); if [ $$((pk % 25)) -eq 0 ]; then echo "[make]   $$pk packages compiled ($$l)"; fi ;; \
		esac; done; \
		if [ $$pk -eq 0 ]; then echo "[make] nothing to compile: every package came from the build cache"; \
		else echo "[make] $$pk packages compiled ($$ts tree-sitter), the rest came from the build cache"; fi; \
		exit $$rc; } >&2; \
	rc=$$?; \
	if [ $$rc -eq 0 ]; then echo "[make] built in $$(( $$(date +%s) - start )) s: $$(ls $(BIN) | tr '\n' ' ')" >&2; \
	else echo "[make] build failed (exit $$rc)" >&2; fi; \
	exit $$rc

## check-cgo: tree-sitter grammars are C, so m1nd cannot build without cgo.
# Without this check a missing compiler surfaces as "undefined: ts.Language"
# or "build constraints exclude all Go files" deep in a grammar module.
check-cgo:
	@if ! command -v $(GO) >/dev/null 2>&1; then \
		echo "m1nd needs Go >= 1.26: '$(GO)' is not on PATH (https://go.dev/dl)" >&2; exit 1; fi; \
	cc=$$($(GO) env CC); set -- $$cc; \
	if [ -z "$$1" ] || ! command -v "$$1" >/dev/null 2>&1; then \
		echo "m1nd needs a C compiler for cgo (its parsers are tree-sitter grammars written in C)." >&2; \
		echo "  'go env CC' is '$$cc', which is not on PATH; without it Go turns cgo off." >&2; \
		echo "  Install one: apt-get install gcc (Debian/Ubuntu), dnf install gcc (Fedora)," >&2; \
		echo "  xcode-select --install (macOS); or point CC at a compiler you have (CC=clang make ...)." >&2; \
		exit 1; fi; \
	if [ "$$($(GO) env CGO_ENABLED)" != 1 ]; then \
		echo "m1nd needs cgo (its parsers are tree-sitter grammars written in C), but CGO_ENABLED is $$($(GO) env CGO_ENABLED)." >&2; \
		echo "  The C compiler '$$cc' is there; cgo is switched off in the environment or by 'go env -w'." >&2; \
		echo "  Run with CGO_ENABLED=1 (unset CGO_ENABLED; go env -u CGO_ENABLED)." >&2; \
		exit 1; fi

## run: build, then serve this repository (or REPO=...) over stdio, state in .m1nd/
run: build
	@exec $(BIN)/m1nd-mcp --runtime-dir $(CURDIR)/.m1nd --ingest $(REPO)

## bench: go benchmarks of every module (numbers go to benchmarks/RESULTS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list -f '{{.Dir}}/...' -m)

## docs: regenerate docs/tools.md from the live registry
docs:
	cd tools && $(GO) run ./cmd/m1nd-docs -o $(CURDIR)/docs/tools.md

clean:
	rm -rf $(BIN)

.PHONY: modcheck tidy
## modcheck: every module on its own (GOWORK=off) against a local module proxy
## built from this tree at release/versions.txt: tidy, build, vet, core's tests,
## examples/embed; then go install m1nd-mcp@version into a fresh GOPATH and run it
modcheck:
	release/modcheck.sh

## tidy: go mod tidy every module as it stands outside the workspace
tidy:
	release/modcheck.sh tidy
