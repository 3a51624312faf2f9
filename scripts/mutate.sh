#!/usr/bin/env bash
# Mutation-testing gate: runs gremlins on every package listed in
# scripts/mutation-floors.txt and fails when a package's test efficacy falls
# below its floor. `make mutate` calls it; docs/testing.md explains it.
#
#   scripts/mutate.sh                      every listed package
#   scripts/mutate.sh chain/fees mempool   only these (must be listed)
#
# Environment: GREMLINS_WORKERS (default 1), GREMLINS_TIMEOUT_COEFFICIENT
# (default 50), MUTATE_OUT (directory for the per-package reports, default
# bin/mutate), MUTATE_FLOORS (the floors file, default
# scripts/mutation-floors.txt).
#
# gremlins times a mutant's test run against the coverage run, whose build is
# usually cached; a mutant must recompile and relink, which on a loaded
# 2-core machine took more than 10x as long and turned 19 of chain/fees's 46
# mutants into spurious TIMED OUT. Timed-out mutants drop out of the
# efficacy, so a low coefficient hides live mutants; 50 leaves none.
set -euo pipefail

cd "$(dirname "$0")/.."
GREMLINS_VERSION=v0.6.0
FLOORS=${MUTATE_FLOORS:-scripts/mutation-floors.txt}
WORKERS=${GREMLINS_WORKERS:-1}
COEFF=${GREMLINS_TIMEOUT_COEFFICIENT:-50}
OUT=${MUTATE_OUT:-bin/mutate}
mkdir -p "$OUT"

GOBIN_DIR=$(go env GOPATH)/bin
GREMLINS=$GOBIN_DIR/gremlins
if ! go version -m "$GREMLINS" 2>/dev/null | grep -qE "^[[:space:]]*mod[[:space:]]+github.com/go-gremlins/gremlins[[:space:]]+$GREMLINS_VERSION([[:space:]]|$)"; then
	echo "mutate: installing gremlins $GREMLINS_VERSION" >&2
	go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
fi

want=("$@")
listed() {
	[ ${#want[@]} -eq 0 ] && return 0
	local w
	for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}

failed=0
ran=0
summary=""
# A package may have several lines (each with its own files=); each line
# writes its own reports: <pkg>.log for the first, <pkg>.2.log for the
# second, and so on, so a later line does not overwrite an earlier one's.
declare -A lines=()
while read -r pkg floor opts; do
	case "$pkg" in ''|'#'*) continue ;; esac
	listed "$pkg" || continue
	ran=$((ran + 1))
	lines[$pkg]=$((${lines[$pkg]:-0} + 1))
	report="$OUT/${pkg//\//_}"
	label=$pkg # the summary's name for this line: pkg, pkg#2, ...
	if [ "${lines[$pkg]}" -gt 1 ]; then
		report+=".${lines[$pkg]}"
		label="$pkg#${lines[$pkg]}"
	fi
	args=(unleash --workers "$WORKERS" --timeout-coefficient "$COEFF" -o "$report.json")
	# gremlins walks the directory recursively; subpackages have lines of
	# their own (crypto/bls under crypto), so only this directory's files.
	args+=(-E "/")
	files="" skip=""
	for o in $opts; do
		case "$o" in
		files=*) files=${o#files=} ;;
		skip=*) skip=${o#skip=} ;;
		esac
	done
	if [ -n "$files" ]; then
		keep=",$files,"
		for f in "$pkg"/*.go; do
			b=$(basename "$f")
			case "$b" in *_test.go) continue ;; esac
			[[ "$keep" == *",$b,"* ]] && continue
			args+=(-E "(^|/)${b//./\\.}\$")
		done
	fi
	echo "== $pkg (floor $floor%)"
	log="$report.log"
	# skip=: tests left out of every run of this package (its slowest
	# simulations), passed to go test through GOFLAGS.
	# -count=1: gremlins times every mutant against its first, unmutated
	# run; served from Go's test cache that run takes 0.1 s, and under load
	# most mutants then "time out" (uncounted) instead of being killed.
	goflags="${GOFLAGS:-} -count=1"
	[ -n "$skip" ] && goflags="$goflags -skip=$skip"
	# Each line builds under a directory of its own, so that what it leaves
	# running can be found: when a mutant times out gremlins stops its
	# `go test` but not the test binary that one started, which then runs
	# (often in the mutant's endless loop) until its own -test.timeout, up
	# to an hour, taking a core from the lines after it. Those binaries
	# live under this directory; they are killed when the line ends.
	linetmp=$(mktemp -d "${TMPDIR:-/tmp}/mutate-line.XXXXXX")
	TMPDIR="$linetmp" GOFLAGS="$goflags" "$GREMLINS" "${args[@]}" "./$pkg" >"$log" 2>&1 || true
	pkill -f -- "^$linetmp/" 2>/dev/null || true
	rm -rf "$linetmp"
	tail -n 5 "$log"
	# Survivors listed in docs/testing.md as equivalent (a table row
	# "| pkg | file:line:col | TYPE | why |") are expected; any other is
	# printed for a test to kill or for the table.
	listed_eq=0
	while read -r _ typ _ pos; do
		if grep -qF "| $pkg | $pos | $typ |" docs/testing.md 2>/dev/null; then
			listed_eq=$((listed_eq + 1))
		else
			echo "  unexplained survivor: $typ at $pkg/$pos"
		fi
	done < <(grep -E '^ *LIVED ' "$log" | sed 's/^ *//')
	grep -E 'TIMED OUT|NOT VIABLE' "$log" || true
	eff=$(sed -n 's/^Test efficacy: \([0-9.]*\)%.*/\1/p' "$log" | tail -n 1)
	killed=$(sed -n 's/^Killed: \([0-9]*\), Lived: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
	lived=$(sed -n 's/^Killed: \([0-9]*\), Lived: \([0-9]*\).*/\2/p' "$log" | tail -n 1)
	if [ -z "$eff" ]; then
		echo "mutate: $pkg: gremlins gave no efficacy (see $log)" >&2
		failed=1
		summary+=$(printf '%-18s %9s %10s %7s%%  FAIL (no result)' "$label" "-" "-" "$floor")$'\n'
		continue
	fi
	verdict=ok
	if awk -v e="$eff" -v f="$floor" 'BEGIN { exit !(e + 0 < f + 0) }'; then
		verdict="FAIL (below floor)"
		failed=1
	fi
	adj=$(awk -v k="${killed:-0}" -v l="${lived:-0}" -v e="$listed_eq" 'BEGIN { if (k + l == 0) print "-"; else printf "%.2f", 100 * (k + e) / (k + l) }')
	summary+=$(printf '%-18s %8s%% %9s%% %7s%%  %s' "$label" "$eff" "$adj" "$floor" "$verdict")$'\n'
done <"$FLOORS"

if [ "$ran" -eq 0 ]; then
	echo "mutate: no listed package matched: ${want[*]}" >&2
	exit 2
fi
echo
echo "package            efficacy  +listed eq.    floor"
printf '%s' "$summary"
exit "$failed"
