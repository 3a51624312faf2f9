#!/usr/bin/env bash
# Cross-CPU determinism check (issue 5, "Software floating point"): run the
# softfloat and math tests as arm64 binaries under qemu-user. Both
# architectures are checked against the same committed bits
# (pvm/softfloat/testdata/crossarch.golden, libm_cpython.txt,
# repr_cpython.txt) and the same CPython goldens (pvm/testdata/math_*.py.out,
# float_*.py.out), so a pass on amd64 and here means the same results.
#
# Installs qemu-user from Debian's packages when it is missing and we are
# root with apt-get; otherwise says so and exits 0 (the check is skipped),
# or exits 1 with REQUIRE_ARM64=1.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "test-arm64: installing qemu-user" >&2
		apt-get update -qq >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
	fi
fi
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	echo "test-arm64: qemu-aarch64 not available; arm64 check skipped" >&2
	[ "${REQUIRE_ARM64:-0}" = 1 ] && exit 1
	exit 0
fi

# Go runs cross-compiled test binaries through -exec. CGO is off so no
# cross C toolchain is needed. The default case counts keep this to a few
# minutes under emulation.
# softfloat alone takes about 9.5 minutes under emulation on a loaded 2-core
# machine (its special-function vectors included), near go test's default
# 10-minute limit, hence -timeout.
GOARCH=arm64 CGO_ENABLED=0 go test -count=1 -timeout 30m -exec qemu-aarch64 \
	./pvm/softfloat/ ./pvm/modules/ "$@"
# The live-heap limit: MemoryError at the cycle count pinned in
# pvm/testdata/memory/hold_11mib.golden, and the heap walk's model sizes.
GOARCH=arm64 CGO_ENABLED=0 go test -count=1 -exec qemu-aarch64 \
	-run 'LiveHeap|HeapWalk' ./pvm/ ./pvm/vm/
