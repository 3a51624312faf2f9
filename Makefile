# The README's two commands: `go run ./cmd/cowboyd devnet` and `make test`.
GO ?= go

.PHONY: test build bench fuzz vet

# Everything that needs no network beyond loopback; .ci/run calls this.
test:
	$(GO) vet ./...
	$(GO) test ./...
	$(MAKE) fuzz

build:
	$(GO) build -o bin/ ./cmd/...

# Benchmarks behind the targets in the issues; results in docs/benchmarks.md.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 5x ./node/
	$(GO) test -run '^$$' -bench . ./crypto/ ./chain/types/ ./mempool/ ./store/ ./rpc/

# Short fuzzing of the decoders, seeded by the checked-in corpora.
FUZZTIME ?= 10s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeTx$$' -fuzztime $(FUZZTIME) ./chain/types/
	$(GO) test -run '^$$' -fuzz '^FuzzServeJSON$$' -fuzztime $(FUZZTIME) ./rpc/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeProof$$' -fuzztime $(FUZZTIME) ./store/
