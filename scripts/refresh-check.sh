#!/usr/bin/env bash
# Before refreshing baseline/ for a change of rounding (docs/performance.md,
# "Issue #52"): shows that only rounding moved and that the assembly
# kernels and their pure-Go fallbacks give the same bits.
#
# Usage: scripts/refresh-check.sh OUT [RTOL [ATOL]]
#
# Runs the suite twice from empty caches, -j 2: OUT/asm with the assembly
# kernels this CPU has, OUT/noasm with RUNEXP_NOASM=1 (the pure-Go
# fallbacks); then
#   1. runexp compare --rtol 0 --atol 0 OUT/asm OUT/noasm: must say
#      nothing changed (exit 0): the fallback is bit for bit the assembly;
#   2. runexp compare --rtol RTOL --atol ATOL baseline OUT/asm (and the
#      same for OUT/noasm): the metrics that moved beyond the tolerance
#      (default 1e-6 relative, 1e-9 absolute: rounding of the new
#      product, eigensolver, exp and sums, amplified by the
#      ill-conditioned quantities of some cells) and every claim whose
#      verdict changed, which must be none.
# The reports are OUT/asm-vs-noasm.txt, OUT/baseline-vs-asm.txt and
# OUT/baseline-vs-noasm.txt; OUT/summary says which checks passed. Exit
# status 0 when both hold. ONLY=GLOB runs the configs it matches
# (nightly-quick for a short check); the whole suite takes two suite runs
# of CPU (≈ 3000 CPU-s each on 2 cores): run it alone on the machine.
set -euo pipefail
out=${1:?usage: scripts/refresh-check.sh OUT [RTOL [ATOL]]}
rtol=${2:-1e-6}
atol=${3:-1e-9}
cd "$(dirname "$0")/.."
: "${RUNEXP_DATA:?set RUNEXP_DATA to the data root}"
[ ! -e "$out" ] || { echo "$out exists: give a fresh folder (empty caches)" >&2; exit 2; }
mkdir -p "$out"
make build >/dev/null
only=()
[ -z "${ONLY:-}" ] || only=(--only "$ONLY")

run() { # run NAME [ENV…]: the suite into OUT/NAME, its log in OUT/NAME.log
	local name=$1
	shift
	echo "$(date -u +%T) suite $name (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$out/summary"
	env "$@" ./bin/runexp suite -q -j 2 "${only[@]}" --out "$out/$name" > "$out/$name.log" 2>&1 || true
	echo "$(date -u +%T) suite $name done: $(tail -1 "$out/$name.log")" | tee -a "$out/summary"
}
run asm
run noasm RUNEXP_NOASM=1

rc=0
if ./bin/runexp compare --rtol 0 --atol 0 "$out/asm" "$out/noasm" > "$out/asm-vs-noasm.txt" 2>&1; then
	echo "1. assembly and pure-Go fallback: bit-identical (runexp compare --rtol 0 --atol 0: no changes)" | tee -a "$out/summary"
else
	echo "1. assembly and pure-Go fallback DIFFER: see $out/asm-vs-noasm.txt" | tee -a "$out/summary"
	rc=1
fi
for side in asm noasm; do
	./bin/runexp compare --rtol "$rtol" --atol "$atol" baseline "$out/$side" > "$out/baseline-vs-$side.txt" 2>&1 || true
	# compare's first line counts the changes: "N claim(s) changed, M
	# metric(s) moved, …" (report.changeCounts); no claim may change.
	head1=$(head -1 "$out/baseline-vs-$side.txt")
	echo "2. baseline vs $side at rtol $rtol, atol $atol: ${head1#*: } (see $out/baseline-vs-$side.txt)" | tee -a "$out/summary"
	if grep -qE '^Changes.*[0-9]+ claims? changed' "$out/baseline-vs-$side.txt"; then
		echo "   a claim's verdict changed: not only rounding" | tee -a "$out/summary"
		rc=1
	fi
done
echo "exit status $rc" | tee -a "$out/summary"
exit "$rc"
