#!/usr/bin/env bash
# The whole suite, pure Go, -j 2, timed for docs/performance.md: run it
# alone on the machine. Usage: scripts/quiet-suite.sh OUT (a fresh folder:
# an empty cell cache). Writes OUT.log (the suite's output), OUT.err
# (its stderr and /usr/bin/time -v), OUT.load (the one-minute load
# average, once a minute) and OUT.summary (wall, CPU-s, utilisation, the
# longest unit, CPU by family over all threads, the predictions).
# QUIET_ONLY=GLOB runs only the configs it matches (a check of the script).
set -euo pipefail
out=${1:?usage: scripts/quiet-suite.sh OUT}
cd "$(dirname "$0")/.."
: "${RUNEXP_DATA:?set RUNEXP_DATA to the data root}"
[ ! -e "$out" ] || { echo "$out exists: give a fresh folder (an empty cache)" >&2; exit 2; }
make build >/dev/null
{ echo "start $(date -u +%FT%TZ) on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"; } > "$out.load"
( while :; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 60; done ) >> "$out.load" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null' EXIT
rc=0
/usr/bin/time -v ./bin/runexp suite --baseline baseline --rtol 0 --atol 0 -q -j 2 ${QUIET_ONLY:+--only "$QUIET_ONLY"} --out "$out" > "$out.log" 2> "$out.err" || rc=$?
kill "$sampler" 2>/dev/null || true
{
	echo "exit status $rc; $(grep -c 'No changes.' "$out.log") 'No changes.' line(s) (0: see $out.log)"
	echo "load (one-minute average): $(awk 'NR > 1 { print $2 }' "$out.load" | sort -n | sed -n '1p;$p' | paste -sd- -)"
	python3 scripts/suite-families.py "$out/suite.json" "$out.err"
	./bin/runexp suite --predict 1,2,16,64,4x2,16x2 "$out/suite.json"
} > "$out.summary" 2>&1
cat "$out.summary"
exit "$rc"
