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
build:
	@mkdir -p $(BIN)
	cd mcpserver && $(GO) build -o $(BIN)/ ./cmd/... 
	cd openclaw && $(GO) build -o $(BIN)/ ./cmd/...
	cd tools && $(GO) build -o $(BIN)/ ./cmd/...

## run: build, then serve this repository (or REPO=...) over stdio, state in .m1nd/
run: build
	$(BIN)/m1nd-mcp --runtime-dir $(CURDIR)/.m1nd --ingest $(REPO)

## bench: go benchmarks of every module (numbers go to benchmarks/RESULTS.md)
bench:
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list -f '{{.Dir}}/...' -m)

## docs: regenerate docs/tools.md from the live registry
docs:
	cd tools && $(GO) run ./cmd/m1nd-docs -o $(CURDIR)/docs/tools.md

clean:
	rm -rf $(BIN)
