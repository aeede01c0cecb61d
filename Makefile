# runexp — make targets. `make test` is what CI runs (see .ci/run).
GO       ?= go
REVISION := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Whether the tree differs from REVISION (a changed tracked file, or an
# untracked Go or module file): the manifest's vcs_modified when GOFLAGS
# holds -buildvcs=false and the go command stamps nothing.
MODIFIED := $(shell git status --porcelain --untracked-files=all 2>/dev/null | grep -qE '^([^?]|\?\? .*(\.go|go\.mod|go\.sum)$$)' && echo true || echo false)
LDFLAGS  := -X github.com/runexp/runexp/internal/report.Revision=$(REVISION) \
	-X github.com/runexp/runexp/internal/report.BuildModified=$(MODIFIED)
DATA     ?= $(RUNEXP_DATA)

.PHONY: all build test vet fmt bench fuzz stress suite suite-quick scoreboard browser-check clean

all: vet test build

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/runexp ./cmd/runexp

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w .

# The default test suite: unit tests, the conformance kit, the two-ring
# configs end to end. Real-data tests run when RUNEXP_DATA is set.
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 60m ./...

# The kill -9 and lock-race tests at length (make test runs 3 kills, 12
# pairs and one orphan round of each kind): STRESS_KILLS starts killed at
# random moments, each rerun compared with a clean run byte for byte,
# STRESS_PAIRS pairs of processes taking one results lock at once, and
# STRESS_ORPHANS runs of an external estimator killed each way (kill -9 of
# runexp's pid, of its process group, SIGTERM; on Linux kill -9 of the
# reaper, of the worker, and of all three at once followed by a next run),
# after which no process of the estimator and no batch folder may be left. Run it on a loaded
# machine.
STRESS_KILLS ?= 40
STRESS_PAIRS ?= 500
STRESS_ORPHANS ?= 10
stress:
	RUNEXP_STRESS_KILLS=$(STRESS_KILLS) $(GO) test -count=1 -run '^TestKill9ParentRerun$$' -timeout 60m ./cmd/runexp/
	RUNEXP_STRESS_PAIRS=$(STRESS_PAIRS) $(GO) test -count=1 -run '^TestLockRace$$' -timeout 60m ./internal/runner/
	RUNEXP_STRESS_ORPHANS=$(STRESS_ORPHANS) $(GO) test -count=1 -run '^TestExternalOrphans$$' -timeout 60m ./cmd/runexp/

# Fuzz every parser (config, config + validate, CSV, USPS text and gzip file, GIF, PGM, MAT,
# SHA256SUMS, the PIE index map, Oil Flow text, the ORL zip, JPEG), and
# the Markdown escape alone and through runexp report and scoreboard with
# the text in a config and the paper values (checked through a CommonMark
# parser), for FUZZTIME each; CI runs `make fuzz FUZZTIME=5s`.
# New crashers land in the package's testdata/fuzz and then run with
# `make test` as regression seeds.
FUZZTIME ?= 60s
FUZZ_TARGETS := ./internal/config:FuzzParse ./experiments:FuzzValidate \
	./internal/datasets:FuzzDecodeMAT ./internal/datasets:FuzzDecodePGM \
	./internal/datasets:FuzzReadCSVMatrix ./internal/datasets:FuzzParseUSPS \
	./internal/datasets:FuzzDecodeYaleFace ./internal/datasets:FuzzParseSums \
	./internal/datasets:FuzzParsePIEMap ./internal/datasets:FuzzDecodeUSPS \
	./internal/datasets:FuzzParseNumbers ./internal/datasets:FuzzDecodeORL \
	./internal/datasets:FuzzDecodeJPEGGray \
	./internal/report:FuzzMarkdownLiteral ./cmd/runexp:FuzzMarkdownInert

# A target that ends with Go 1.26's "context deadline exceeded" race at
# its deadline and saves no input is run again (scripts/fuzz.sh).
fuzz:
	@GO=$(GO) scripts/fuzz.sh $(FUZZTIME) $(FUZZ_TARGETS)

# Benchmarks of the hot paths (KPCA fit, projection, Mika, Kwok–Tsang).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/methods/

# The make targets per paper and dataset: each runs, in one process (so
# configs on the same data share features and kernel fits), every config
# whose name matches its globs, through `runexp suite` (suite.json gives
# each config's wall and CPU seconds). PROFILE=DIR also writes a CPU
# profile per config (`make profile` does it for all and sums them per
# target). Times are docs/performance.md's, 2 cores, empty cache.
TARGETS := toy usps yaleb huang nguyen lpkpca matrix
# The two synthetic figures (no data needed).
toy_CONFIGS    := abrahamsen-hansen-fig2 abrahamsen-hansen-fig3
# Abrahamsen & Hansen Figs. 4–6 and their readings on USPS; most of it the
# Lasso/GPS cells of Fig. 4 and its std reading.
usps_CONFIGS   := abrahamsen-hansen-fig4* abrahamsen-hansen-fig5* abrahamsen-hansen-fig6*
# Zheng & Lai Tables 1–4 and their readings on Yale B (one kernel PCA fit).
yaleb_CONFIGS  := zheng-lai-*
# Huang, Tian & De la Torre Table 1 and Figs. 5–6 (Yale faces, CMU PIE).
huang_CONFIGS  := huang-*
# Nguyen & De la Torre Fig. 5 table and Tables 1–2 (CMU PIE, Oil Flow);
# most of it the Oil Flow tables.
nguyen_CONFIGS := nguyen-*
# Zheng et al. LPKPCA Tables 1–6 and Figs. 2, 4, 6 (ORL, Yale B, Scene-15);
# the first time most of it GIST for the 4485 Scene-15 images.
lpkpca_CONFIGS := zheng-lpkpca-*
# The cross-paper matrix: every estimator on every dataset it can run.
matrix_CONFIGS := matrix
PROFILE ?=
# BIN=./bin/runexp-openblas (after make build-openblas) runs the targets
# and the profile on the OpenBLAS build.
BIN ?= ./bin/runexp

.PHONY: $(TARGETS) profile
$(TARGETS): build
	$(BIN) suite $(foreach g,$($@_CONFIGS),--only '$(g)') $(if $(PROFILE),--cpuprofile $(PROFILE))

# The whole suite against the baseline with a CPU profile per config, then
# the profiles summed per make target: $(PROFILE_DIR)/TARGET.top (pprof
# -top, flat and cumulative) and suite.json's seconds per config.
PROFILE_DIR ?= results/profiles
profile: build
	-$(BIN) suite --baseline baseline --cpuprofile $(PROFILE_DIR) $(if $(ONLY),--only '$(ONLY)')
	@$(foreach t,$(TARGETS),files=$$(for g in $(foreach g,$($(t)_CONFIGS),'$(g)'); do ls $(PROFILE_DIR)/$$g.pprof 2>/dev/null; done); \
		if [ -n "$$files" ]; then $(GO) tool pprof -top -nodecount 40 $(BIN) $$files > $(PROFILE_DIR)/$(t).top 2>/dev/null && \
		echo "$(PROFILE_DIR)/$(t).top"; fi;)

# The Slurm recipes of docs/array-jobs.md on a real scheduler: a one-node
# cluster on this machine (Debian's slurm-wlm and munge, installed with apt
# if missing; needs root), a 3-task array of one config and of a quick
# suite subset, each with its dependent merge, checked byte for byte
# against a single run (.ci/slurm.sh, TestSlurmArrayJobs).
.PHONY: test-slurm
test-slurm:
	.ci/slurm.sh

.PHONY: build-openblas test-openblas bench-hot bench-suite bench-openblas bench-peers bench-kernels

# runexp against its peers on the same data and parameters
# (cmd/peerbench, python/peers): scikit-learn's KernelPCA (fit; fit +
# learned pre-image), SciPy's eigh with a subset (LPKPCA's eigenproblem)
# and NumPy implementations of Mika's fixed point, Kwok–Tsang, RKPCA's
# fixed point, RKPCA's Algorithm 1 on Oil Flow and the Lasso pre-image's
# GPS path; prints the CPU and wall seconds of each side, their ratio and
# the agreement of the outputs (3–5 minutes, most of it the NumPy GPS).
# Needs RUNEXP_DATA and Debian's python3-numpy, python3-scipy and
# python3-sklearn (RUNEXP_PYTHON names the interpreter). Not in make test.
PEER_PYTHON ?= $(or $(RUNEXP_PYTHON),python3)
PEER_REPEATS ?= 3
# PEER_TAGS=openblas times runexp's OpenBLAS build instead.
PEER_TAGS ?=
bench-peers:
	$(GO) run $(if $(PEER_TAGS),-tags $(PEER_TAGS)) ./cmd/peerbench -python $(PEER_PYTHON) -repeats $(PEER_REPEATS)

# The optional OpenBLAS backend (internal/linalg): gonum's cgo bindings
# (gonum.org/v1/netlib) on Debian's OpenBLAS and LAPACKE
# (apt-get install libopenblas-dev liblapacke-dev). Pure Go stays the
# default; the tag changes rounding only (TestBackendAgreement).
build-openblas:
	$(GO) build -tags openblas -ldflags '$(LDFLAGS)' -o bin/runexp-openblas ./cmd/runexp

# The tests of the numerical packages under the OpenBLAS backend, with the
# agreement test against pure Go, and the experiments' tests, which run
# real configs at -j 1 and -j 2 and want the same bytes.
test-openblas:
	$(GO) vet -tags openblas ./internal/... ./experiments/...
	$(GO) test -count=1 -tags openblas ./internal/... ./experiments/...

# Benchmarks of the hot paths named in docs/performance.md (GIST, LPKPCA,
# dense kernels with achieved GFLOPS, Lasso/GPS). The machine is shared:
# repeat with -count to judge the noise.
bench-hot: bench-kernels
	$(GO) test -run '^$$' -bench 'GIST' -benchmem ./internal/datasets/
	$(GO) test -run '^$$' -bench 'Dgemm|EigenSym' ./internal/linalg/
	$(GO) test -run '^$$' -bench 'GaussianGram' ./internal/kernel/
	$(GO) test -run '^$$' -bench 'FitLPKPCA1500|LassoGPSRows|RKPCAGemanMcClure' -benchtime 2x ./internal/methods/

# The dense kernels on one core (-cpu 1), in GFLOP per CPU-second: the
# packed product with each micro-kernel this CPU runs (the whole product
# at n = 64…2000, and the micro-kernel alone), the exponential's kernels,
# then single-thread OpenBLAS's dgemm (OPENBLAS_NUM_THREADS=1) as Debian's
# build detects the CPU and with its AVX2 (Haswell) and AVX-512 (SkylakeX)
# kernels forced: a CPU newer than OpenBLAS 0.3.21 (Sapphire/Emerald
# Rapids) is detected as Prescott, SSE3 only (docs/performance.md).
bench-kernels:
	$(GO) test -run '^$$' -cpu 1 -bench 'GemmKernel|GemmMicroKernel' ./internal/linalg/
	$(GO) test -run '^$$' -cpu 1 -bench 'Exp' ./internal/vecmath/
	OPENBLAS_NUM_THREADS=1 $(GO) test -tags openblas -run '^$$' -cpu 1 -bench 'Dgemm' ./internal/linalg/
	OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell $(GO) test -tags openblas -run '^$$' -cpu 1 -bench 'Dgemm' ./internal/linalg/
	OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX $(GO) test -tags openblas -run '^$$' -cpu 1 -bench 'Dgemm' ./internal/linalg/

# Times every config, each in its own process with an empty cache (so
# shared work such as Scene-15's GIST is counted in every config that needs
# it), and writes the table to $(BENCH_OUT). BENCH_BIN=bin/runexp-openblas
# times the OpenBLAS build; BENCH_CONFIGS narrows the list. Exit status 1
# (a paper claim failed) is a result, not a failure of the timing.
BENCH_BIN     ?= bin/runexp
BENCH_CONFIGS ?= $(wildcard configs/*.yaml)
BENCH_OUT     ?= results/bench-suite.md

bench-suite: build
	@mkdir -p $(dir $(BENCH_OUT))
	@tmp=$$(mktemp -d); \
	{ echo "| config | seconds | exit |"; echo "|---|---:|---:|"; } > $(BENCH_OUT); \
	for c in $(BENCH_CONFIGS); do \
		t0=$$(date +%s.%N); \
		$(BENCH_BIN) --out $$tmp/out --cache $$tmp/cache-$$(basename $$c .yaml) $$c > $$tmp/log 2>&1; rc=$$?; \
		t1=$$(date +%s.%N); \
		secs=$$(awk "BEGIN { print $$t1 - $$t0 }"); \
		printf '| %s | %.1f | %d |\n' $$c $$secs $$rc | tee -a $(BENCH_OUT); \
	done; \
	echo "load average at the end: $$(cut -d' ' -f1-3 /proc/loadavg) on $$(nproc) cores, $(BENCH_BIN)" >> $(BENCH_OUT); \
	rm -rf $$tmp

bench-openblas:
	$(GO) test -tags openblas -run '^$$' -bench 'Dgemm|EigenSym' ./internal/linalg/
	$(GO) test -tags openblas -run '^$$' -bench 'GaussianGram' ./internal/kernel/
	$(GO) test -tags openblas -run '^$$' -bench 'FitLPKPCA1500|RKPCAGemanMcClure' -benchtime 2x ./internal/methods/
# Every config once, in one process, compared with the committed baseline
# (docs/nightly.md). ONLY='huang-*' runs a subset; the exit status follows
# docs/exit-status.md. 50 minutes on 2 idle cores without a warm cache
# (all 79 configs, 2998.8 s, 5890 CPU seconds, 2026-11-29: make
# suite-quiet; docs/performance.md has the breakdown).
ONLY ?=
suite: build
	./bin/runexp suite --baseline baseline $(if $(ONLY),--only '$(ONLY)')

# The whole suite, pure Go, -j 2, timed with /usr/bin/time -v and a
# one-minute load sampler, then wall, CPU-s, utilisation, the longest
# unit and CPU by family over all threads (scripts/quiet-suite.sh; run it
# alone on the machine, with a fresh QUIET_OUT).
QUIET_OUT ?= results/quiet-$(shell date -u +%Y%m%dT%H%M)
.PHONY: suite-quiet
suite-quiet:
	scripts/quiet-suite.sh $(QUIET_OUT)

# Once, on a quiet machine, before a baseline refresh for a change of
# rounding (scripts/refresh-check.sh): the suite from empty caches with the
# assembly kernels into REFRESH_OUT/asm, timed, and with RUNEXP_NOASM=1 into
# REFRESH_OUT/noasm; the two compared at --rtol 0 --atol 0 (must be equal),
# each compared with baseline/ at REFRESH_RTOL/REFRESH_ATOL with every claim
# whose verdict moved listed (must be none); REFRESH_OUT/summary. ONLY='glob'
# runs a subset (a check of the plumbing).
REFRESH_OUT  ?= results/refresh-$(shell date -u +%Y%m%dT%H%M)
REFRESH_RTOL ?= 1e-6
REFRESH_ATOL ?= 1e-9
.PHONY: refresh-check refresh-baseline
refresh-check:
	ONLY='$(ONLY)' scripts/refresh-check.sh $(REFRESH_OUT) $(REFRESH_RTOL) $(REFRESH_ATOL)

# Then writes baseline/ from REFRESH_OUT/asm's cell cache (every cell
# cached: nothing is recomputed; the run goes to REFRESH_OUT/rebase,
# leaving REFRESH_OUT/asm as timed), regenerates REPRODUCIBILITY.md from it
# and checks the new baseline against the pure-Go run at --rtol 0 --atol 0.
# Review with git diff before committing.
refresh-baseline: build
	@test -d $(REFRESH_OUT)/asm/.cache || { echo "no $(REFRESH_OUT)/asm/.cache: run make refresh-check REFRESH_OUT=$(REFRESH_OUT) first" >&2; exit 2; }
	@# exit 1 (a verdict differs from its expectation) and 3 (a cell failed)
	@# are results the baseline records, not failures of the refresh
	rc=0; ./bin/runexp suite -q -j 2 $(if $(ONLY),--only '$(ONLY)') --cache $(REFRESH_OUT)/asm/.cache \
		--out $(REFRESH_OUT)/rebase --write-baseline baseline || rc=$$?; case $$rc in 0|1|3) ;; *) exit $$rc ;; esac
	./bin/runexp scoreboard --out REPRODUCIBILITY.md baseline >/dev/null
	./bin/runexp compare --rtol 0 --atol 0 baseline $(REFRESH_OUT)/noasm

# The quick configs (the committed baseline covers them), compared with it:
# the nightly job in 106 s on 2 idle cores from a cold cache (needs RUNEXP_DATA). The
# list is the collection configs/nightly-quick.yaml.
suite-quick: build
	./bin/runexp suite --baseline baseline nightly-quick

# The pages in a real browser (internal/pagecheck): first the fixture
# pages, each broken one of which must fail the check and its fixed copy
# pass (a cell that overflows, broken links, figure labels shrunk to 4 px
# at 390 px with nothing saying so, a ★ not on the lowest value of its
# column), then BROWSER_CONFIGS run into BROWSER_OUT (one config per
# experiment kind of the quick configs, and the cross-paper matrix), the
# paper report of every paper from those results and from the committed
# baseline (BROWSER_OUT/reports, BROWSER_OUT/reports-baseline), and
# headless Chromium loads the index, every run page, the scoreboard and
# every report at 1280 px and at 390 px (a phone): no sideways scrolling
# (a wide table scrolls in its own box with a scroll shadow, its first
# column and the paper's own method fixed; a table of records lays out a
# record a block), no text under 9 px, figure labels at 9 px or more or
# the figure a thumbnail that says so and links its full image, a ★ on
# its column's lowest value, every image loaded, every link resolved.
# Screenshots land in BROWSER_OUT/screenshots/1280 and /390. Needs
# Debian's chromium (RUNEXP_CHROMIUM names another); .ci/run installs it.
# Without data only the two synthetic figures run. The suite's exit
# status 1 (a verdict not as expected) and 3 (incomplete) still leave
# pages to check.
BROWSER_OUT ?= results/browser
BROWSER_CONFIGS ?= abrahamsen-hansen-fig2 abrahamsen-hansen-fig3 \
	$(if $(DATA),abrahamsen-hansen-fig6 huang-table1 huang-fig5 nguyen-table2 zheng-lpkpca-fig2 matrix)
browser-check: build
	RUNEXP_BROWSER_CHECK=require $(GO) test -count=1 -v -run 'Fixture|ScrollingTable' ./internal/pagecheck
	rm -rf $(BROWSER_OUT)/screenshots
	./bin/runexp suite -q --out $(BROWSER_OUT) $(BROWSER_CONFIGS); rc=$$?; \
		if [ $$rc -ne 0 ] && [ $$rc -ne 1 ] && [ $$rc -ne 3 ]; then exit $$rc; fi
	./bin/runexp report --results $(BROWSER_OUT) all >/dev/null
	rm -rf $(BROWSER_OUT)/reports-baseline
	./bin/runexp report --results baseline --out $(BROWSER_OUT)/reports-baseline all >/dev/null
	RUNEXP_BROWSER_CHECK=require RUNEXP_PAGES=$(abspath $(BROWSER_OUT)) $(GO) test -count=1 -v -run 'Results' ./internal/pagecheck

clean:
	rm -rf bin results

# REPRODUCIBILITY.md at the repository root: every claim under the stated
# protocol and each documented reading (docs/readings.md). From the
# committed baseline by default (the configs it lacks are listed as not
# run), also rewriting docs/readings.md's generated blocks (reading fit,
# assignment, verdict counts); SCOREBOARD_ROOT=results after `make suite`
# gives the full version of the page alone.
SCOREBOARD_ROOT ?= baseline
scoreboard: build
	./bin/runexp scoreboard --out REPRODUCIBILITY.md $(if $(filter baseline,$(SCOREBOARD_ROOT)),--readings docs/readings.md) $(SCOREBOARD_ROOT)
