# pbem — make run | make test | make test-one P=./pkg T=TestName | make test-fast | make bench | make build | make vet | make help
#
# PostgreSQL: DATABASE_URL if set, else a server on 127.0.0.1:5432 if one
# answers, else a private cluster in $(PBEM_DATA)/postgres started with the
# machine's initdb/pg_ctl (see cmd/internal/pgcluster).

# Go may be installed without being on PATH.
export PATH := $(PATH):/usr/local/go/bin

GO        ?= go
BIN       := bin/pbem
LOAD_BIN  := bin/pbemload
PBEM_DATA ?= ./data
export PBEM_DATA
# make run listens on this machine only (the dev mailbox shows every link).
PBEM_LISTEN ?= 127.0.0.1:8080

# Packages tested with the race detector: everything with goroutines,
# locks or concurrent database work (the engines are pure and single-threaded).
RACE_PKGS ?= ./events/... ./projections/... ./notify/... ./api/... ./cmd/pbem ./cmd/pbemload
# The browser tests (api's TestBrowser*, chromium driving the pages) run
# without the race detector, in a go test of their own beside the race run:
# the race detector is for the server's concurrency, which api's other tests
# run under it (handlers, live streams, concurrent moves, the workers); the
# browser tests spend their time waiting on chromium, so beside the race
# run they cost the wall clock little.
# The packages with browser tests are found by name, so that none is skipped
# by the race run without running here.
BROWSER_TESTS ?= ^TestBrowser
BROWSER_PKGS ?= $(sort $(dir $(shell grep -rlE --include='*_test.go' --exclude-dir=data --exclude-dir=node_modules '^func TestBrowser' .)))
# The packages tested without the race detector: the rest.
PLAIN_PKGS ?= $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")
TEST_TIMEOUT ?= 30m
BENCH_PKGS ?= ./...
# Fuzz targets run by make test (each for FUZZ_TIME; their seed corpora
# also run as ordinary tests), as package:target.
FUZZ_TARGETS ?= ./api/:FuzzAPIJSON ./api/:FuzzPageForms ./api/inbound/:FuzzReadReply
FUZZ_TIME ?= 10s
# staticcheck, pinned; `go run` fetches it through the module proxy.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build run test test-go test-one test-fast help test-ha fuzz bench vet peers history

## build: compile bin/pbem and the load tool bin/pbemload
build:
	$(GO) build -o $(BIN) ./cmd/pbem
	$(GO) build -o $(LOAD_BIN) ./cmd/pbemload

## run: run the server on 127.0.0.1:8080 (PBEM_LISTEN to change); Ctrl-C stops it and its private PostgreSQL
run: build
	PBEM_LISTEN='$(PBEM_LISTEN)' exec ./$(BIN) serve

## test: vet, then every test (race detector on RACE_PKGS) against a PostgreSQL it starts or reuses
# A private cluster it starts runs without fsync (pbem db exec --no-fsync,
# pgcluster.NoFsync: no test depends on PostgreSQL's durability against a
# crash of the machine); a server found running is used as it is.
test: vet build
	./$(BIN) db exec --no-fsync -- $(MAKE) --no-print-directory test-go

# The longest package under -race, run in a go test of its own so that it
# starts at once (in one go test with the others it started last).
RACE_FIRST ?= ./api

# test-go runs the tests; PBEM_TEST_DATABASE_URL is set by `pbem db exec`.
# Its four tracks run at once (each track's output together when it ends):
# RACE_FIRST and the other race packages, the browser tests and the
# packages without goroutines; then the fuzz targets. Each track is a
# `go test -json` read by testtime (cmd/internal/testtime), which prints
# what a plain go test prints ("ok pkg 1.2s", FAIL lines, the output of
# failing tests), keeps its exit code, and records its times in
# TEST_TIMES; at the end testtime prints where the time went: each
# track's and package's wall time beside the previous run's, the slowest
# tests, and a closing line "tests: N passed, N failed, N skipped". A
# failing track still lets the others finish and the table print.
TEST_TIMES ?= $(PBEM_DATA)/test-times/run
TESTTIME   := bin/testtime
# track NAME runs the rest of the line, a go test -json, as track NAME.
track = ./$(TESTTIME) -track $(1) -dir $(TEST_TIMES) --

test-go:
	@$(GO) build -o $(TESTTIME) ./cmd/internal/testtime
	@rm -rf $(TEST_TIMES); rc=0; \
	$(MAKE) --no-print-directory -j4 --output-sync=target test-race-first test-race test-browser test-plain || rc=1; \
	if [ $$rc -eq 0 ]; then $(MAKE) --no-print-directory fuzz FUZZ_TRACKS=1 || rc=1; fi; \
	./$(TESTTIME) -report $(TEST_TIMES) || rc=1; \
	exit $$rc

.PHONY: test-race-first test-race test-browser test-plain
test-race-first:
	$(call track,race-first) $(GO) test -json -race -timeout $(TEST_TIMEOUT) -skip '$(BROWSER_TESTS)' $(RACE_FIRST)
test-race:
	$(call track,race) $(GO) test -json -race -timeout $(TEST_TIMEOUT) -skip '$(BROWSER_TESTS)' $$($(GO) list $(RACE_PKGS) | grep -vxF "$$($(GO) list $(RACE_FIRST))")
test-browser:
	$(call track,browser) $(GO) test -json -timeout $(TEST_TIMEOUT) -run '$(BROWSER_TESTS)' $(BROWSER_PKGS)
test-plain:
	$(call track,plain) $(GO) test -json -timeout $(TEST_TIMEOUT) $(PLAIN_PKGS)

## test-one: one test (T, a go test -run regexp; empty: the whole package) of one package (P),
## verbose and not cached, against the PostgreSQL make test uses: make test-one P=./notify/postgres T=TestName
## (RACE=1 adds the race detector, as make test has it for RACE_PKGS)
test-one:
	@test -n '$(P)' || { echo 'usage: make test-one P=./package [T=TestName] [RACE=1]' >&2; exit 2; }
	$(GO) build -o $(BIN) ./cmd/pbem
	./$(BIN) db exec --no-fsync -- $(GO) test -count=1 -v $(if $(RACE),-race) -timeout $(TEST_TIMEOUT) -run '$(T)' $(P)

## test-fast: the quick edit-test loop: the tests of TEST_FAST_PKGS (all) with -short and
## cached results. It skips what make test adds: vet, staticcheck and gofmt, the race detector,
## the browser tests (TestBrowser*), the system tests (cmd/pbem/systest) and the private-cluster
## test (both skip under -short), the fuzzing, and it plays fewer random games where a test
## asks testing.Short. Run make test before landing.
TEST_FAST_PKGS ?= ./...
test-fast:
	$(GO) build -o $(BIN) ./cmd/pbem
	./$(BIN) db exec --no-fsync -- $(GO) test -short -skip '$(BROWSER_TESTS)' $(TEST_FAST_PKGS)

## help: these lines
help:
	@sed -n 's/^## //p' $(firstword $(MAKEFILE_LIST))

## fuzz: fuzz each of FUZZ_TARGETS for FUZZ_TIME (needs PBEM_TEST_DATABASE_URL or a server on 127.0.0.1:5432)
# (FUZZ_TRACKS=1, from test-go: each target a track of the time table.)
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($(FUZZ_TIME))"; \
		$(if $(FUZZ_TRACKS),$(call track,fuzz-$${t#*:}) $(GO) test -json,$(GO) test) -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZ_TIME) "$${t%%:*}"; \
	done

## test-ha: the failover test: a pg_auto_failover formation (monitor, primary, synchronous
## standby) of its own, the primary killed under load (needs pg_autoctl: see docs/operating.md)
test-ha: build
	$(GO) test -tags ha -count=1 -run TestFailover -timeout 10m -v ./cmd/pbem/systest/

## bench: the benchmarks (event store: append vs plain INSERT, reads; BENCH_PKGS to narrow)
bench: build
	./$(BIN) db exec -- $(GO) test -run '^$$' -bench . -benchtime 2s $(BENCH_PKGS)

## peers: pbem beside boardgame.io (the move path: each server apart from its clients) and Message DB (appends) on a private PostgreSQL, one run, then the tables (needs node, npm)
peers:
	bench/peers/run.sh $(PEERS_SECONDS)

## history: scale with history: 100,000 finished and 10,000 active games (HISTORY="FINISHED ACTIVE" to change); about 30 minutes
history:
	bench/history/run.sh $(HISTORY)

## vet: go vet, staticcheck and gofmt
vet:
	$(GO) vet ./...
	$(GO) vet -tags ha ./cmd/pbem/systest/
	$(GO) vet -tags ops ./cmd/pbem/systest/
	$(GO) run $(STATICCHECK) ./...
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './data/*' -not -path '*/node_modules/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

.PHONY: page-bench mail-bench

## page-bench: the play page of both games in chromium on a throttled slow 4G phone (bench/page)
page-bench: build
	$(BIN) db exec -- $(GO) run ./bench/page -pbem $(BIN) $(PAGE_BENCH_FLAGS)

## mail-bench: the outbox worker sending the 10,000-address daily digest to a loopback SMTP server
mail-bench: build
	./$(BIN) db exec -- $(GO) test -run '^$$' -bench OutboxRun -benchtime 10000x ./notify/postgres/

.PHONY: release test-package test-ops

## test-ops: the upgrade under load from the previous release and the point-in-time restore rehearsal (cmd/pbem/systest, tag ops)
test-ops: build
	$(GO) test -tags ops -count=1 -run 'TestUpgradeUnderLoad|TestPointInTimeRestore' -timeout 15m -v ./cmd/pbem/systest/

# Release: static binaries and Debian packages in RELEASE_DIR. VERSION is
# the tag (v1.2.3 -> 1.2.3) when HEAD has one, else 0.0.0~gitDATE.COMMIT.
RELEASE_DIR ?= dist
COMMIT      ?= $(shell git rev-parse HEAD 2>/dev/null)
VERSION     ?= $(shell v=$$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); \
	if [ -n "$$v" ]; then echo "$${v#v}"; else echo "0.0.0~git$$(git log -1 --format=%cd --date=format:%Y%m%d%H%M%S).$$(git rev-parse --short=12 HEAD)"; fi)
RELEASE_ARCHES ?= amd64 arm64

## release: static pbem for linux/amd64 and arm64 (version and commit stamped) and a .deb of each (packaging/build-deb.sh), in dist/
release:
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	@set -e; for arch in $(RELEASE_ARCHES); do \
		echo "pbem $(VERSION) linux/$$arch"; \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$arch $(GO) build -trimpath \
			-ldflags "-s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)" \
			-o $(RELEASE_DIR)/pbem-linux-$$arch ./cmd/pbem; \
		packaging/build-deb.sh $(RELEASE_DIR)/pbem-linux-$$arch $$arch "$(VERSION)" $(RELEASE_DIR); \
	done
	@ls -l $(RELEASE_DIR)

## test-package: make release, then install the amd64 package on this machine (root) and check it (packaging/test-install.sh)
test-package: release
	packaging/test-install.sh $(RELEASE_DIR)/pbem_*_amd64.deb "$(VERSION)"

