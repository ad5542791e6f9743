# pbem — make run | make test | make bench | make build | make vet
#
# PostgreSQL: DATABASE_URL if set, else a server on 127.0.0.1:5432 if one
# answers, else a private cluster in $(PBEM_DATA)/postgres started with the
# machine's initdb/pg_ctl (see events/postgres/cluster).

# Go may be installed without being on PATH.
export PATH := $(PATH):/usr/local/go/bin

GO        ?= go
BIN       := bin/pbem
PBEM_DATA ?= ./data
export PBEM_DATA

# Packages tested with the race detector: everything with goroutines,
# locks or concurrent database work (the engines are pure and single-threaded).
RACE_PKGS ?= ./events/... ./projections/... ./notify/... ./api/... ./cmd/...
TEST_TIMEOUT ?= 30m
BENCH_PKGS ?= ./...
# staticcheck, pinned; `go run` fetches it through the module proxy.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build run test test-go bench vet peers

## build: compile bin/pbem
build:
	$(GO) build -o $(BIN) ./cmd/pbem

## run: run the server on :8080 (PBEM_LISTEN); Ctrl-C stops it and its private PostgreSQL
run: build
	exec ./$(BIN) serve

## test: vet, then every test (race detector on RACE_PKGS) against a PostgreSQL it starts or reuses
test: vet build
	./$(BIN) db exec -- $(MAKE) --no-print-directory test-go

# test-go runs the tests; PBEM_TEST_DATABASE_URL is set by `pbem db exec`.
test-go:
	$(GO) test -race -timeout $(TEST_TIMEOUT) $(RACE_PKGS)
	$(GO) test -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")

## bench: the benchmarks (event store: append vs plain INSERT, reads; BENCH_PKGS to narrow)
bench: build
	./$(BIN) db exec -- $(GO) test -run '^$$' -bench . -benchtime 2s $(BENCH_PKGS)

## peers: pbem beside Message DB (appends) and its own load test on a private PostgreSQL, one run, then the table
peers:
	bench/peers/run.sh $(PEERS_SECONDS)

## vet: go vet, staticcheck and gofmt
vet:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './data/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
