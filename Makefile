# m1nd — one workspace, five modules. `go test ./...` does not cross module
# boundaries, so every target iterates the modules listed in go.work.
MODULES := core ingest mcpserver openclaw tools
GO      ?= go
BIN     := $(CURDIR)/bin
REPO    ?= $(CURDIR)

.PHONY: test fmt-check vet race build run bench clean docs

## test: gofmt check, go vet and go test -race over every module
test: fmt-check vet race

fmt-check:
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $$($(GO) list -f '{{.Dir}}/...' -m)

race:
	$(GO) test -race -count=1 $$($(GO) list -f '{{.Dir}}/...' -m)

## build: the binaries into ./bin
# Recipes are silent and build output goes to stderr: an MCP client may
# launch `make run` directly, and stdout must carry only protocol messages.
build:
	@mkdir -p $(BIN)
	@cd mcpserver && $(GO) build -o $(BIN)/ ./cmd/... 1>&2
	@cd openclaw && $(GO) build -o $(BIN)/ ./cmd/... 1>&2
	@cd tools && $(GO) build -o $(BIN)/ ./cmd/... 1>&2

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
