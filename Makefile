# The README's two commands: `go run ./cmd/cowboyd devnet` and `make test`.
GO ?= go

.PHONY: test build bench fuzz vet mutate difftest corpus

# Everything that needs no network beyond loopback; .ci/run calls this.
test:
	$(GO) vet ./...
	$(GO) test ./...
	# These read the tree through subprocesses (go list, git ls-files), which
	# the test cache cannot see: run them afresh every time.
	$(GO) test -count=1 ./internal/layers .
	@if command -v qemu-aarch64 >/dev/null 2>&1; then scripts/test-arm64.sh; else echo "make test: qemu-aarch64 not installed; the arm64 float check is skipped (scripts/test-arm64.sh installs it)"; fi
	$(MAKE) fuzz

build:
	$(GO) build -o bin/ ./cmd/...

# Benchmarks behind the targets in the issues; results in docs/benchmarks.md.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 5x ./node/
	$(GO) test -run '^$$' -bench . ./crypto/ ./chain/types/ ./mempool/ ./store/ ./rpc/
	# CBFS: encode/decode, end-to-end put/get on loopback relays, repair (docs/cbfs.md)
	$(GO) test -run '^$$' -bench . -benchtime 3x ./cbfs/ ./cbfs/cluster/
	# PVM vs CPython 3.11 on the pyperformance programs (docs/benchmarks.md).
	$(GO) run ./scripts/pyperfbench -runs 3

# Short fuzzing of the decoders, seeded by the checked-in corpora. Budgets
# are execution counts, not durations: Go 1.26's fuzz coordinator can fail a
# duration run with a spurious "context deadline exceeded" on a loaded
# machine (golang/go#75804, fixed in Go 1.27). FUZZSCALE multiplies them.
FUZZSCALE ?= 1
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeTx$$' -fuzztime $$((300000 * $(FUZZSCALE)))x ./chain/types/
	$(GO) test -run '^$$' -fuzz '^FuzzServeJSON$$' -fuzztime $$((50000 * $(FUZZSCALE)))x ./rpc/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeProof$$' -fuzztime $$((60000 * $(FUZZSCALE)))x ./store/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $$((100000 * $(FUZZSCALE)))x ./pvm/cbor/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFrame$$' -fuzztime $$((100000 * $(FUZZSCALE)))x ./p2p/
	$(MAKE) difftest DIFFTEST_N=$$((300 * $(FUZZSCALE)))

# Mutation testing of the consensus-critical packages (docs/testing.md,
# "Mutation testing"): fails when a package's efficacy drops below its floor
# in scripts/mutation-floors.txt. Slow (about an hour on 2 cores); not part
# of `make test`. PKGS="chain/fees mempool" runs a subset.
PKGS ?=
mutate:
	scripts/mutate.sh $(PKGS)

# Differential fuzzing of the PVM against CPython 3.11 (pvm/difftest,
# docs/testing.md): DIFFTEST_N generated programs from DIFFTEST_SEED, run
# under python3 and the PVM, every difference printed minimized. Skipped
# when python3 is not installed.
DIFFTEST_N ?= 300
DIFFTEST_SEED ?= 1
difftest:
	@if command -v python3 >/dev/null 2>&1; then \
		$(GO) run ./pvm/difftest/cmd/difftest -n $(DIFFTEST_N) -seed $(DIFFTEST_SEED) -j 2; \
	else echo "make difftest: python3 (CPython 3.11) not installed; the differential fuzzer is skipped"; fi

# Third-party Python through CPython 3.11 and the PVM (scripts/corpus,
# docs/testing.md "Third-party Python: the corpus run"): every .py file's
# doctests under CORPUS, e.g. a clone of TheAlgorithms/Python, per-file
# verdicts and a summary, minimized differences in CORPUS_OUT. Needs
# python3 and time (about an hour for 1,400 files on two loaded cores);
# not part of `make test`.
CORPUS ?=
CORPUS_OUT ?= corpus-out
CORPUS_J ?= 2
corpus:
	@if [ -z "$(CORPUS)" ]; then echo "make corpus: set CORPUS to a directory of .py files, e.g. git clone https://github.com/TheAlgorithms/Python; make corpus CORPUS=Python"; exit 2; fi
	nice -n 10 $(GO) run ./scripts/corpus -dir $(CORPUS) -out $(CORPUS_OUT) -j $(CORPUS_J)
