# lspseam — build, test and benchmark. `make help` lists the targets.

GO       ?= go
WASM     := bindings/go/core.wasm
# The end-to-end tests on real language servers (e2e/, internal/testenv)
# run only with LSPSEAM_E2E=1, so that a plain `go test ./...` fits Go's
# default 10-minute timeout. Every target here sets it: make test, and so
# CI, runs everything. With it set, a missing server fails a test instead
# of skipping it. (Benchmarks are not gated: -bench names them.)
export LSPSEAM_E2E := 1

# One compilation cache for every test process of a run (see
# internal/testenv's SharedCacheVar): the module is compiled once, not once
# per package and again under -race. Kept between runs; `make clean`
# removes it.
export LSPSEAM_TEST_CACHE := $(CURDIR)/.cache/test-compile

# The module build must be reproducible: same sources + same Go release =
# same bytes (checked by the freshness test in cmd/wasm).
WASMFLAGS := -trimpath -buildvcs=false -buildmode=c-shared -ldflags=-buildid=

.PHONY: help build install precompiled wasm docs cross dist dist-check test check-test-prereqs test-go test-race test-abi test-js test-mcp check-fmt vet bench bench-tokens bench-languages soak fuzz demo clean

help:
	@echo "make build     bin/lspseam and $(WASM) (bin/lspseam carries its core compiled for this machine)"
	@echo "make precompiled  compile the core for this machine into cmd/shim/precompiled/ (build, install and test run it)"
	@echo "make wasm      rebuild $(WASM) from core/ and cmd/wasm/, and bindings/go/handshake.json"
	@echo "make docs      regenerate the tables of docs/abi.md and docs/tools.md, then check every document"
	@echo "make test      everything CI runs (checks first that the servers, Node.js and Chromium are installed)"
	@echo "make cross     build, vet and link the test binaries for macOS and Windows (CROSS=\"os/arch ...\" for others)"
	@echo "make dist      release binaries for every target with SHA256SUMS in dist/ (reproducible)"
	@echo "make dist-check  make dist twice from these sources and compare the bytes"
	@echo "make bench     benchmarks (ratios measured in one run)"
	@echo "make bench-tokens  tokens of the MCP tool definitions per toolset (o200k)"
	@echo "make bench-languages  per language: a cold first answer and the server's memory"
	@echo "               (writes docs/languages-performance.md; needs make servers)"
	@echo "make soak      4,000 mixed queries through one serve (errors, latency, RSS, fds)"
	@echo "make fuzz      each fuzz target for FUZZTIME (default 5m)"
	@echo "make servers   22 pinned language servers into .tools/ (SERVERS=\"gopls clangd\" for some;"
	@echo "               names: gopls typescript pyright clangd bash yaml json html css php dockerfile"
	@echo "               vue svelte fortran cmake basedpyright ruff toml clangd22)"
	@echo "make servers-smoke  check each installed server answers LSP initialize"
	@echo "make install   lspseam into PREFIX/bin (default PREFIX=~/.local)"
	@echo "make install-servers  the pinned servers into PREFIX/share/lspseam/bin"
	@echo "make demo      build, install gopls, run the four operations on the Go fixture"

# The binary records this checkout's .tools/bin (filled by `make servers`)
# as a place to find language servers after PATH; see docs/shim.md
# "Finding servers".
SHIMFLAGS := -trimpath -ldflags "-X main.toolsDir=$(CURDIR)/.tools/bin"

build: wasm
	@$(MAKE) --no-print-directory precompiled
	@mkdir -p bin
	$(GO) build $(SHIMFLAGS) -o bin/lspseam ./cmd/shim

# The core module's machine code for this machine, compiled now into
# cmd/shim/precompiled/ (not committed) for the shim to embed, so that
# its first run loads the code instead of compiling the module (seconds
# of CPU; RATIONALE, "Why make build carries the compiled core"). Done
# once per module: it does nothing when the directory has this module's
# code. A build without it (`go build ./cmd/shim`) compiles on its first
# run instead.
precompiled:
	$(GO) run ./cmd/precompile cmd/shim/precompiled

# `make install` puts lspseam in PREFIX/bin; `make install-servers` puts the
# pinned servers in PREFIX/share/lspseam/bin, where that lspseam finds them.
# (`go install ./cmd/shim` would name the binary `shim`; without make, use
# `go build -o ~/.local/bin/lspseam ./cmd/shim`.)
PREFIX ?= $(HOME)/.local

install:
	@$(MAKE) --no-print-directory precompiled
	@mkdir -p "$(PREFIX)/bin"
	$(GO) build $(SHIMFLAGS) -o "$(PREFIX)/bin/lspseam" ./cmd/shim
	@echo "installed $(PREFIX)/bin/lspseam; servers: make install-servers PREFIX=$(PREFIX)"

# The module, then the core's answers a host shows before the module is
# compiled (bindings/go/handshake.json; internal/handshake checks it), then
# what the hosts spell of the ABI's method table (cmd/contractgen: the
# method table of docs/abi.md, the npm package's AbiMethods, and the tool
# table of docs/tools.md; its test checks them).
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(WASM) ./cmd/wasm
	$(GO) run ./cmd/handshakegen bindings/go/handshake.json
	$(GO) run ./cmd/contractgen

# The documents: the generated tables (cmd/contractgen), then what
# internal/doccheck and contractgen's test check (links and anchors, the
# README's table of contents, docs/layout.md and every package's doc
# comment against the tree, docs/go.md's programs). The console
# transcripts need the real servers: LSPSEAM_E2E=1 go test -run
# TestREADMETranscripts ./e2e/ (in make test).
docs:
	$(GO) run ./cmd/contractgen
	$(GO) test -count=1 ./internal/doccheck ./cmd/contractgen

# The release targets (docs/platforms.md); only Linux runs the tests.
TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# make cross (in make test) builds, vets and links the test binaries for one
# target per operating-system family the code has files for (every
# //go:build line is unix, linux, !linux or windows): the other
# architectures share that code, and each costs a full compile (a minute or
# more on CI), so they are built by make dist (and CROSS="$(TARGETS)").
CROSS   ?= darwin/arm64 windows/amd64
# Packages with code per operating system, whose test binaries must link
# for macOS and Windows too.
OSPKGS  := ./bindings/go/ ./bindings/go/toolbox/ ./bindings/go/internal/workspacefs/ ./bindings/go/localstdio/ ./cmd/shim/

cross:
	@set -e; for t in $(CROSS); do \
		echo "cross: $$t: build, vet"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/shim; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	done
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for t in $(CROSS); do \
		echo "cross: $$t: test binaries of $(OSPKGS)"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) test -c -o "$$tmp/" $(OSPKGS); \
	done

# Release binaries: the embedded core.wasm is the committed one (its
# freshness is tested), no checkout path is linked in (unlike make build's
# main.toolsDir), and -trimpath, no VCS stamp and an empty build ID make the
# bytes a function of the sources and the Go release alone. They carry no
# precompiled core (the lspseam_noprecompiled tag): code compiled here is
# for this machine's CPU; a release's first run compiles the module.
DISTFLAGS := -trimpath -buildvcs=false -ldflags=-buildid=
DIST ?= dist

dist:
	@rm -rf "$(DIST)" && mkdir -p "$(DIST)"
	@set -e; for t in $(TARGETS); do \
		os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "dist: $(DIST)/lspseam-$$os-$$arch$$ext"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(DISTFLAGS) -tags lspseam_noprecompiled -o "$(DIST)/lspseam-$$os-$$arch$$ext" ./cmd/shim; \
	done
	@cd "$(DIST)" && sha256sum lspseam-* > SHA256SUMS && cat SHA256SUMS

dist-check:
	@set -e; a=$$(mktemp -d); b=$$(mktemp -d); trap 'rm -rf "$$a" "$$b"' EXIT; \
	$(MAKE) --no-print-directory dist DIST="$$a" >/dev/null; \
	GOFLAGS=-a $(MAKE) --no-print-directory dist DIST="$$b" >/dev/null; \
	if cmp -s "$$a/SHA256SUMS" "$$b/SHA256SUMS"; then echo "dist-check: two builds, same bytes:"; cat "$$a/SHA256SUMS"; \
	else echo "dist-check: the builds differ:"; diff "$$a/SHA256SUMS" "$$b/SHA256SUMS"; exit 1; fi

# `make test` first checks that what the tests need is installed (the
# pinned servers in .tools/bin, Go, Node.js >= 20 with npm, /usr/bin/chromium) and
# stops with one line naming what is missing and how to install it, rather
# than failing tests twenty minutes in.
test: check-test-prereqs
	@$(MAKE) --no-print-directory vet check-fmt cross precompiled test-go test-race test-abi test-js test-mcp

check-test-prereqs:
	@bash tools/check-test-prereqs.sh

check-fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./cmd/wasm

test-go:
	$(GO) test -count=1 -timeout 30m ./...

test-race:
	$(GO) test -count=1 -timeout 30m -race ./bindings/go/... ./cmd/shim/... ./internal/...

# The module driven by an outside WASI host (Node's), no lspseam code.
test-abi:
	node --test e2e/abi/

# The npm package (bindings/js) and its harness and browser tests (e2e/js).
# The browser test needs /usr/bin/chromium (.ci/run installs it).
test-js:
	cd bindings/js && npm ci --no-audit --no-fund && npm run build && npm test
	cd e2e/js && npm ci --no-audit --no-fund && npm test

# `lspseam mcp` driven by the official MCP TypeScript SDK client.
test-mcp: build
	cd e2e/mcp && npm ci --no-audit --no-fund && LSPSEAM_BIN="$(CURDIR)/bin/lspseam" npm test

# Ratios and sizes measured in one run each; see docs/performance.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/ ./bindings/go/ ./internal/writeset/
	$(GO) test -run '^$$' -bench . -skip '^(BenchmarkLanguageCold|BenchmarkPeersOnCobra|BenchmarkPeersFirstRun|BenchmarkImpactRealCode|BenchmarkRenameRealCode)$$' -benchtime 100x ./e2e/
	@# The peers on real code, when LSPSEAM_PEER_COBRA and a peer are set (else skipped);
	@# the first run is that of lspseam as make builds it (with its precompiled core).
	@$(MAKE) --no-print-directory precompiled
	$(GO) test -run '^$$' -bench '^BenchmarkPeersOnCobra$$' -benchtime 20x ./e2e/
	$(GO) test -run '^$$' -bench '^BenchmarkPeersFirstRun$$' -benchtime 1x ./e2e/
	@# The cross-file impact on real code, when LSPSEAM_PEER_COBRA and LSPSEAM_PEER_ZOD
	@# name checkouts of spf13/cobra and colinhacks/zod (the benchmark fails without them).
	@if [ -n "$$LSPSEAM_PEER_COBRA" ] && [ -n "$$LSPSEAM_PEER_ZOD" ]; then \
		$(GO) test -run '^$$' -bench '^BenchmarkImpactRealCode$$' -benchtime 10x ./e2e/; \
	else echo "BenchmarkImpactRealCode not run: set LSPSEAM_PEER_COBRA and LSPSEAM_PEER_ZOD to checkouts of spf13/cobra and colinhacks/zod"; fi
	@if [ -n "$$LSPSEAM_PEER_COBRA" ]; then \
		$(GO) test -run '^$$' -bench '^BenchmarkRenameRealCode$$' -benchtime 10x ./e2e/; \
	else echo "BenchmarkRenameRealCode not run: set LSPSEAM_PEER_COBRA to a checkout of spf13/cobra"; fi
	$(MAKE) bench-languages
	cd bindings/js && npm run build && npm run bench
	$(MAKE) --no-print-directory bench-tokens

# Tokens of `lspseam mcp`'s tools/list per toolset (o200k_base, counted by
# gpt-tokenizer); docs/performance.md has the figures.
bench-tokens: build
	cd e2e/mcp && npm ci --no-audit --no-fund && LSPSEAM_BIN="$(CURDIR)/bin/lspseam" npm run --silent bench

# Per tested language, a cold serve's first answer and its server's memory,
# written to docs/languages-performance.md (needs make servers).
bench-languages:
	LSPSEAM_BENCH_LANGUAGES=$(CURDIR)/docs/languages-performance.md $(GO) test -run '^$$' -bench '^BenchmarkLanguageCold$$' -benchtime 1x -timeout 30m ./e2e/

# One serve, 8 workspaces, 4,000 mixed queries with 8 in flight (fake server).
soak:
	$(GO) test -run '^$$' -bench '^BenchmarkSoak$$' -benchtime 1x ./e2e/

FUZZTIME ?= 5m
fuzz:
	for f in $$($(GO) test -list '^Fuzz' ./core/ | grep '^Fuzz'); do \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./core/ || exit 1; \
	done

# The four operations on the Go fixture, with the pinned gopls (the only
# server it installs), found by bin/lspseam in .tools/bin without PATH.
DEMO_QUERIES := "goToDefinition cmd/shapes/main.go:23:17" "findReferences shape.go:15:6" \
	"goToImplementation shape.go:9:2" "hover cmd/shapes/main.go:23:17"
demo: build
	@$(MAKE) --no-print-directory servers SERVERS=gopls
	@cd testdata/workspaces/go && for q in $(DEMO_QUERIES); do \
		echo "\$$ lspseam query $$q"; \
		"$(CURDIR)/bin/lspseam" query $$q || exit 1; \
		echo; \
	done

clean:
	rm -rf bin .cache/test-compile

include tools/servers/servers.mk
