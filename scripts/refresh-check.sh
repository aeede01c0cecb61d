#!/usr/bin/env bash
# Before refreshing baseline/ for a change of rounding (docs/performance.md,
# "Issue #52"): shows that only rounding moved, that the assembly kernels
# and their pure-Go fallbacks give the same bits, and times the suite.
#
# Usage: scripts/refresh-check.sh OUT [RTOL [ATOL]]   (make refresh-check)
#
# Runs the suite twice from empty caches, -j 2, each under /usr/bin/time -v
# with a one-minute load sampler: OUT/asm with the assembly kernels this
# CPU has, then OUT/noasm with RUNEXP_NOASM=1 (the pure-Go fallbacks); then
#   1. runexp compare --rtol 0 --atol 0 OUT/asm OUT/noasm: must say
#      nothing changed (exit 0): the fallback is bit for bit the assembly;
#   2. runexp compare --rtol RTOL --atol ATOL baseline OUT/asm (and the
#      same for OUT/noasm): the metrics that moved beyond the tolerance
#      (default 1e-6 relative, 1e-9 absolute: rounding of the new
#      product, eigensolver, exp and sums, amplified by the
#      ill-conditioned quantities of some cells), and every claim whose
#      verdict changed, which must be none (they are listed in the summary);
#   3. the asm run's timing: wall, CPU-s (user + sys of every thread), CPU
#      by family (scripts/suite-families.py) and the wall time predicted
#      on 1 and 2 workers from its suite.json.
# The reports are OUT/asm-vs-noasm.txt, OUT/baseline-vs-asm.txt and
# OUT/baseline-vs-noasm.txt; OUT/summary has everything above. Exit status
# 0 when checks 1 and 2 hold. ONLY=GLOB runs the configs it matches (a
# check of the plumbing); the whole suite is two suite runs of CPU (the
# pure-Go one about twice the assembly one's): run it alone on the machine.
#
# COMPARE_ONLY=1 reruns the comparisons (at another tolerance, say) on an
# OUT that holds both runs, without running the suite; BASELINE=DIR
# compares with DIR instead of baseline/. The refreshed baseline is then
# written from OUT/asm's cell cache without recomputing
# (make refresh-baseline REFRESH_OUT=OUT).
set -euo pipefail
out=${1:?usage: scripts/refresh-check.sh OUT [RTOL [ATOL]]}
rtol=${2:-1e-6}
atol=${3:-1e-9}
base=${BASELINE:-baseline}
cd "$(dirname "$0")/.."
sum="$out/summary"
if [ -n "${COMPARE_ONLY:-}" ]; then
	[ -f "$out/asm/suite.json" ] && [ -f "$out/noasm/suite.json" ] || { echo "$out lacks asm/suite.json or noasm/suite.json: run without COMPARE_ONLY first" >&2; exit 2; }
	echo "$(date -u +%FT%TZ) comparisons again, rtol $rtol, atol $atol, baseline $base" | tee -a "$sum"
else
	: "${RUNEXP_DATA:?set RUNEXP_DATA to the data root}"
	[ ! -e "$out" ] || { echo "$out exists: give a fresh folder (empty caches)" >&2; exit 2; }
	mkdir -p "$out"
	echo "$(date -u +%FT%TZ) $(git rev-parse --short=12 HEAD) on $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)${ONLY:+, ONLY=$ONLY}" | tee "$sum"
fi
make build >/dev/null
only=()
[ -z "${ONLY:-}" ] || only=(--only "$ONLY")

run() { # run NAME [ENV…]: the suite into OUT/NAME; OUT/NAME.log, .err (time -v), .load
	local name=$1 sampler rc=0
	shift
	( while :; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 60; done ) > "$out/$name.load" &
	sampler=$!
	/usr/bin/time -v env "$@" ./bin/runexp suite -q -j 2 "${only[@]}" --out "$out/$name" > "$out/$name.log" 2> "$out/$name.err" || rc=$?
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	local wall user sys
	wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$out/$name.err")
	user=$(sed -n 's/.*User time (seconds): //p' "$out/$name.err")
	sys=$(sed -n 's/.*System time (seconds): //p' "$out/$name.err")
	echo "suite $name: exit $rc, wall $wall, CPU $(awk "BEGIN { print $user + $sys }") s ($user user + $sys sys)," \
		"one-minute load $(awk '{ print $2 }' "$out/$name.load" | sort -n | sed -n '1p;$p' | paste -sd- -)" | tee -a "$sum"
}
if [ -z "${COMPARE_ONLY:-}" ]; then
	run asm
	run noasm RUNEXP_NOASM=1
fi

rc=0
if ./bin/runexp compare --rtol 0 --atol 0 "$out/asm" "$out/noasm" > "$out/asm-vs-noasm.txt" 2>&1; then
	echo "1. assembly and pure-Go fallback: bit-identical (runexp compare --rtol 0 --atol 0: no changes)" | tee -a "$sum"
else
	echo "1. assembly and pure-Go fallback DIFFER: $(head -1 "$out/asm-vs-noasm.txt") (see $out/asm-vs-noasm.txt)" | tee -a "$sum"
	rc=1
fi
for side in asm noasm; do
	f="$out/baseline-vs-$side.txt"
	./bin/runexp compare --rtol "$rtol" --atol "$atol" "$base" "$out/$side" > "$f" 2>&1 || true
	# compare's title line ends with the counts, "N claim(s) changed, M
	# metric(s) moved, K other change(s)" (report.changeCounts), or is
	# followed by "No changes."; each config with a changed claim lists
	# it on a line "  claim ID: OLD → NEW".
	if grep -q '^No changes\.$' "$f"; then
		counts="no changes"
	else
		counts=$(head -1 "$f" | sed 's/.*: //')
	fi
	echo "2. $base vs $side at rtol $rtol, atol $atol: $counts (see $f)" | tee -a "$sum"
	if grep -qE '^  claim ' "$f"; then
		echo "   claims whose verdict changed (not only rounding):" | tee -a "$sum"
		awk '/^[^ ].*: / && !/^Changes/ { cfg = $1 } /^  claim / { print "   " cfg " " substr($0, 3) }' "$f" | tee -a "$sum"
		rc=1
	else
		echo "   no claim's verdict changed" | tee -a "$sum"
	fi
done
[ -n "${COMPARE_ONLY:-}" ] || {
	echo "3. timing of the asm run (indicative unless the load above stayed below 1):"
	python3 scripts/suite-families.py "$out/asm/suite.json" "$out/asm.err"
	./bin/runexp suite --predict 1,2 "$out/asm/suite.json"
} 2>&1 | tee -a "$sum"
echo "exit status $rc" | tee -a "$sum"
exit "$rc"
