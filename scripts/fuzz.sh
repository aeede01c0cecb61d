#!/usr/bin/env bash
# Fuzz each target for FUZZTIME: scripts/fuzz.sh FUZZTIME PKG:FUZZFUNC...
# (make fuzz). Go 1.26's fuzz coordinator can end a duration-bounded run
# with "context deadline exceeded" and no finding, a race at the
# deadline (go.dev/issue/75804, fixed in Go 1.27), more often on a
# loaded machine. A target that fails so, having saved no new input
# under its testdata/fuzz folder, is run again, up to three tries; a
# failure that saves an input (a finding, which `go test` then runs as
# a seed), or any other failure, stops here at once.
set -uo pipefail
fuzztime=${1:?usage: scripts/fuzz.sh FUZZTIME PKG:FUZZFUNC...}
shift
go=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
	pkg=${t%%:*} fn=${t##*:}
	corpus=$pkg/testdata/fuzz/$fn
	for try in 1 2 3; do
		before=$(ls "$corpus" 2>/dev/null)
		echo "fuzz $fn ($pkg) for $fuzztime"
		if "$go" test -run '^$' -fuzz "^$fn\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$log"; then
			break
		fi
		after=$(ls "$corpus" 2>/dev/null)
		if [ "$before" != "$after" ]; then
			echo "fuzz: $fn found a failing input, saved under $corpus" >&2
			exit 1
		fi
		if ! grep -q '^    context deadline exceeded$' "$log"; then
			exit 1
		fi
		if [ "$try" = 3 ]; then
			echo "fuzz: $fn stopped with \"context deadline exceeded\" and no finding three times in a row" >&2
			exit 1
		fi
		echo "fuzz: $fn stopped with \"context deadline exceeded\" and saved no input (go.dev/issue/75804); trying again" >&2
	done
done
