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

# The race detector where races live. -race slows a test 2 to 20 times,
# and it finds a data race only in code that runs on several goroutines
# while the test runs. So it runs on:
#  - RACE_PKGS, every test: the event store and its batching writer
#    (events/postgres), the play service with its tests on PostgreSQL
#    (take-back, fair play, group commit, the game cache across services,
#    catch-up) and the bot worker (events/...), the projections
#    (projections/...),
#    the outbox workers, the scheduler, the listeners and the live streams
#    (notify/...), serve with all its workers (cmd/pbem) and the load
#    tool's concurrent clients (cmd/pbemload);
#  - in API_PKGS (api, api/inbound), API_RACE_TESTS only: the tests that
#    send requests or SMTP sessions at once, hold live streams, cut slow
#    or idle connections, lose the database, share limiters, budgets and
#    metrics between requests (handlers of separate connections, which
#    the race detector sees unordered even one after another), or play
#    every channel of a game (TestFairPlayEveryChannel). Their other tests
#    render pages and read emails one at a time: under -race they were
#    the longest part of make test (api about 13 minutes on 2 cores), so
#    they run without it (test-api). testrace-check fails when a name of
#    API_RACE_TESTS no longer names a test.
#  - in RACE_PKGS, all but NORACE_TESTS (of NORACE_PKGS), which play
#    whole games one step at a time to check what the emails say, and were
#    the longest of the race run (the your-turn story: 218 s under -race
#    at load 28); they run without it (test-norace). The worker's
#    concurrency they pass through is the race run's (its sender and
#    two-worker tests).
# A race found before stays found: its test keeps -race (the worker crash
# test's, bcb3644, in notify/postgres; serve's test helper's, 7265527, in
# cmd/pbem). The engines (engine/...) are pure and single-threaded.
RACE_PKGS ?= ./notify/... ./projections/... ./events/... ./cmd/pbem ./cmd/pbemload
API_PKGS ?= ./api ./api/inbound
API_RACE_TESTS ?= ^Test(SameMoveTwiceAtOnce|HostileSimultaneousChatUnderTheLimit|PageLiveStreamSendsTheNewVersion|LiveStreamIsNotCompressed|LiveStreamOutlivesTheTimeouts|SlowBodyIsCut|IdleConnectionIsClosed|DatabaseDownAnswers503|ReadOnlyDatabaseAnswers503|OutageKinds|CreateLimitsHoldUnderAbuse|SigninLimit|HostileSigninBudgets|HostileSigninBudgetsByNetwork|HostileMetricsLabelsStayBounded|RequestMetricsByRouteAndRequestIDInLogs|FairPlayEveryChannel|OneNetworkCannotHoldTheListener|IdleCommandsDoNotKeepASessionAlive|SessionLifetimeIsBounded|DataDeadlineAnswerNamesNoSocket|HostileSessionFlood|HostileSlowToRead)$$
NORACE_TESTS ?= ^Test(YourTurnEmailsTellEverythingSinceTheSeatsLastMove)$$
NORACE_PKGS ?= ./notify/postgres
# The browser tests (api's TestBrowser*, chromium driving the pages) run
# without the race detector, in two go tests of their own, each with its
# chromium (a package's browser tests share one and run one at a time):
# browser-a those matching BROWSER_SPLIT, browser-b the others (the
# longest track of make test when they were one: 607 s at load 25; split
# at [A-F], 150 s and 245 s side by side at load 15-19, hence [A-L]; then
# 452 s against 525 s at load 1-25, the second with
# TestBrowserWholeGameByTapping's 274 s, hence TestBrowserRecordPages'
# 34 s moved to the first). The other tracks skip them. The packages with browser tests are found by
# name, so that none is skipped everywhere.
BROWSER_TESTS ?= ^TestBrowser
BROWSER_SPLIT ?= ^TestBrowser([A-L]|Record)
BROWSER_PKGS ?= $(sort $(dir $(shell grep -rlE --include='*_test.go' --exclude-dir=data --exclude-dir=node_modules '^func TestBrowser' .)))
# The packages tested without the race detector: the rest.
PLAIN_PKGS ?= $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS) $(API_PKGS))")
# Parallelism for 2 cores. Most tests wait on PostgreSQL, SMTP or HTTP
# more than they compute: each go test runs TEST_P test binaries at once
# (-p), and each binary TEST_PARALLEL of its t.Parallel tests at once
# (-parallel). The tests that own their database or server call
# t.Parallel; those that time themselves, measure the process's CPU time,
# share the browser or a fixed resource do not, and run one at a time.
TEST_P ?= 2
TEST_PARALLEL ?= 4
# The collector of the test binaries (and of the go commands that build
# them): GOGC=400, as pbem serve sets for itself (cmd/internal/wiring),
# since the tests, like the server, allocate much short-lived JSON over a
# small live heap. CPU seconds (user+sys) of a test binary, GOGC=100 then
# 400, side by side at load 1-4: engine/bagpipes TestRandomGames -short
# 2.86 -> 2.14, engine/lords TestRandomGames -short 14.4 -> 12.5, api's
# TestPage* 3.43 -> 2.33 (then 2.83 -> 2.47). No test reads the heap.
TEST_GOGC ?= 400
TEST_TIMEOUT ?= 30m
BENCH_PKGS ?= ./...
# Fuzz targets run by make test (each for FUZZ_TIME; their seed corpora
# also run as ordinary tests), as package:target.
FUZZ_TARGETS ?= ./api/:FuzzAPIJSON ./api/:FuzzPageForms ./api/inbound/:FuzzReadReply
FUZZ_TIME ?= 10s
# staticcheck, pinned; `go run` fetches it through the module proxy.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build run test test-go test-one test-fast help test-ha fuzz bench vet peers history citus-up citus-down test-citus

## build: compile bin/pbem and the load tool bin/pbemload
build:
	$(GO) build -o $(BIN) ./cmd/pbem
	$(GO) build -o $(LOAD_BIN) ./cmd/pbemload

## run: run the server on 127.0.0.1:8080 (PBEM_LISTEN to change); Ctrl-C stops it and its private PostgreSQL
run: build
	PBEM_LISTEN='$(PBEM_LISTEN)' exec ./$(BIN) serve

## test: vet beside every test (race detector where races live: RACE_PKGS, API_RACE_TESTS) and a short fuzz,
## against a PostgreSQL it starts or reuses; ends with the table of where the time went
# A private cluster it starts runs without fsync (pbem db exec --no-fsync,
# pgcluster.NoFsync: no test depends on PostgreSQL's durability against a
# crash of the machine); a server found running is used as it is.
test: build
	./$(BIN) db exec --no-fsync -- $(MAKE) --no-print-directory test-go

# test-go runs the tests; PBEM_TEST_DATABASE_URL is set by `pbem db exec`.
# Its eight tracks run at once (each track's output together when it
# ends): vet (make vet: go vet, staticcheck, gofmt, which keep a core busy
# while the tests wait on PostgreSQL), race (RACE_PKGS), race-api
# (API_RACE_TESTS), api (API_PKGS' other tests), norace (NORACE_TESTS),
# browser-a and browser-b, and plain (the other packages); then the fuzz
# targets, each a track of its own, which fuzz for FUZZ_TIME with the
# machine to themselves (run beside the tracks, 63900ed, they cost make
# test as much as they saved: 515 s against 520, one quiet fresh clone
# each, and fuzzed fewer inputs). Each
# test track is a
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

test-go test-one test-fast: export GOGC = $(TEST_GOGC)
test-go:
	@$(GO) build -o $(TESTTIME) ./cmd/internal/testtime
	@$(MAKE) --no-print-directory -j2 test-compile
	@rm -rf $(TEST_TIMES); rc=0; \
	$(MAKE) --no-print-directory -j8 --output-sync=target test-vet test-race test-race-api test-api test-norace test-browser-a test-browser-b test-plain || rc=1; \
	if [ $$rc -eq 0 ]; then $(MAKE) --no-print-directory fuzz FUZZ_TRACKS=1 || rc=1; fi; \
	./$(TESTTIME) -report $(TEST_TIMES) || rc=1; \
	exit $$rc

# test-compile compiles every package the tracks test, with its tests,
# once for the tracks without the race detector and once for those with
# it (go list -export compiles, and links nothing), before the tracks
# start. Started at once, the tracks' go tests (and go vet) each
# compiled the packages they share side by side, api's tests four times
# over: on a fresh clone that was about a sixth of make test's CPU.
.PHONY: test-compile test-compile-plain test-compile-race
test-compile: test-compile-plain test-compile-race
test-compile-plain:
	@$(GO) list -export -test -deps ./... >/dev/null
test-compile-race:
	@$(GO) list -race -export -test -deps $(RACE_PKGS) $(API_PKGS) >/dev/null

TEST_FLAGS = -timeout $(TEST_TIMEOUT) -p $(TEST_P) -parallel $(TEST_PARALLEL)
.PHONY: test-vet test-race test-race-api test-api test-norace test-browser test-browser-a test-browser-b test-plain testrace-check
test-vet:
	$(call track,vet) $(MAKE) --no-print-directory vet
test-race: testrace-check
	$(call track,race) $(GO) test -json -race $(TEST_FLAGS) -skip '$(BROWSER_TESTS)|$(NORACE_TESTS)' $(RACE_PKGS)
test-norace: testrace-check
	$(call track,norace) $(GO) test -json $(TEST_FLAGS) -run '$(NORACE_TESTS)' $(NORACE_PKGS)
test-race-api: testrace-check
	$(call track,race-api) $(GO) test -json -race $(TEST_FLAGS) -run '$(API_RACE_TESTS)' -skip '$(BROWSER_TESTS)' $(API_PKGS)
test-api:
	$(call track,api) $(GO) test -json $(TEST_FLAGS) -skip '$(API_RACE_TESTS)|$(BROWSER_TESTS)' $(API_PKGS)
test-browser: test-browser-a test-browser-b
test-browser-a:
	$(call track,browser-a) $(GO) test -json -timeout $(TEST_TIMEOUT) -run '$(BROWSER_SPLIT)' $(BROWSER_PKGS)
test-browser-b:
	$(call track,browser-b) $(GO) test -json -timeout $(TEST_TIMEOUT) -run '$(BROWSER_TESTS)' -skip '$(BROWSER_SPLIT)' $(BROWSER_PKGS)
test-plain:
	$(call track,plain) $(GO) test -json $(TEST_FLAGS) -skip '$(BROWSER_TESTS)' $(PLAIN_PKGS)
# Every name of API_RACE_TESTS names a test of API_PKGS, and every name of
# NORACE_TESTS one of NORACE_PKGS: a renamed test would otherwise leave the
# race detector, or every track, silently. The names are read from the
# packages' test files (their lines "func TestName("), where go test -list
# linked three test binaries to tell them.
testrace-check:
	@check() { \
		names=$$(echo "$$1" | sed 's/^^Test(//; s/)$$$$//' | tr '|' '\n'); \
		found=$$(for d in $$2; do cat $$d/*_test.go; done | sed -n 's/^func Test\([A-Za-z0-9_]*\)(.*/\1/p'); \
		missing=$$(echo "$$names" | grep -vxF "$$found"); \
		if [ -n "$$missing" ]; then echo "$$3 names no test of $$2:" $$missing; exit 1; fi; \
	}; \
	check '$(API_RACE_TESTS)' '$(API_PKGS)' API_RACE_TESTS && check '$(NORACE_TESTS)' '$(NORACE_PKGS)' NORACE_TESTS

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
	./$(BIN) db exec --no-fsync -- $(GO) test -short $(TEST_FLAGS) -skip '$(BROWSER_TESTS)' $(TEST_FAST_PKGS)

## help: these lines
help:
	@sed -n 's/^## //p' $(firstword $(MAKEFILE_LIST))

## fuzz: fuzz each of FUZZ_TARGETS for FUZZ_TIME, all at once (needs PBEM_TEST_DATABASE_URL or a server on 127.0.0.1:5432)
# (FUZZ_TRACKS=1, from test-go: each target a track of the time table.)
# The targets run side by side (one failing fails the run): one after the
# other they took 23 + 13 + 13 s of make test's wall clock, most of it
# building each fuzzing binary. Their packages are built for fuzzing
# first, one after the other (go test -c -fuzz ., which instruments the
# package's build whatever the target and runs nothing), so that
# the targets find every package compiled and only link: started at once
# on a fresh clone, each go test compiled the same instrumented packages
# beside the others, three times the compiler's work.
FUZZ_PKGS = $(sort $(foreach t,$(FUZZ_TARGETS),$(firstword $(subst :, ,$(t)))))
fuzz:
	@for p in $(FUZZ_PKGS); do $(GO) test -c -o /dev/null -fuzz . "$$p" || exit 1; done
	@pids=; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} ($(FUZZ_TIME))"; \
		$(if $(FUZZ_TRACKS),$(call track,fuzz-$${t#*:}) $(GO) test -json,$(GO) test) -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZ_TIME) "$${t%%:*}" & \
		pids="$$pids $$!"; \
	done; rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc

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

## citus-up: a Citus coordinator and two workers on loopback ports 5480-5482 (data in $(PBEM_DATA)/citus; needs the citus extension, docs/SCALING.md)
citus-up:
	bench/citus/cluster.sh up

## citus-down: stop the three Citus nodes of citus-up (their data stays)
citus-down:
	bench/citus/cluster.sh down

## test-citus: the system tests that play whole games against the Citus cluster of citus-up (bench/citus/test.sh; skipped with a message when citus is not installed; not part of make test)
test-citus:
	bench/citus/test.sh

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

