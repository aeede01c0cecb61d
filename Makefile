# runexp — make targets. `make test` is what CI runs (see .ci/run).
GO       ?= go
REVISION := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS  := -X github.com/runexp/runexp/internal/report.Revision=$(REVISION)
DATA     ?= $(RUNEXP_DATA)

.PHONY: all build test vet fmt bench toy usps yaleb huang nguyen lpkpca suite suite-quick clean

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
	$(GO) test -count=1 ./...

# Benchmarks of the hot paths (KPCA fit, projection, Mika, Kwok–Tsang).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/methods/

# The two synthetic figures (no data needed).
toy: build
	./bin/runexp configs/abrahamsen-hansen-fig2.yaml configs/abrahamsen-hansen-fig3.yaml

# Abrahamsen & Hansen Figs. 4–6 on the real USPS digits (needs RUNEXP_DATA).
usps: build
	./bin/runexp configs/abrahamsen-hansen-fig6.yaml configs/abrahamsen-hansen-fig6-unit.yaml configs/abrahamsen-hansen-fig4.yaml \
		configs/abrahamsen-hansen-fig4-std025.yaml configs/abrahamsen-hansen-fig5.yaml

# Zheng & Lai Tables 1–4 on the real Yale B faces (needs RUNEXP_DATA). One
# process, so the four tables share one kernel PCA fit.
yaleb: build
	./bin/runexp configs/zheng-lai-table1.yaml configs/zheng-lai-table2.yaml \
		configs/zheng-lai-table3.yaml configs/zheng-lai-table4.yaml \
		configs/zheng-lai-table1-noise255.yaml configs/zheng-lai-table1-subsets12.yaml \
		configs/zheng-lai-table3-subsets12.yaml

# Huang, Tian & De la Torre Table 1 and Figs. 5–6 on Yale faces and CMU PIE
# (needs RUNEXP_DATA).
huang: build
	./bin/runexp configs/huang-table1.yaml configs/huang-table1-pergroup.yaml \
		configs/huang-table1-pie.yaml configs/huang-table1-pie-pergroup.yaml \
		configs/huang-fig5.yaml configs/huang-fig5-k10.yaml configs/huang-fig6.yaml

# Nguyen & De la Torre Fig. 5 table and Tables 1–2 on CMU PIE and Oil Flow
# (needs RUNEXP_DATA; about 35 minutes, most of it the Oil Flow table).
nguyen: build
	./bin/runexp configs/nguyen-table2.yaml configs/nguyen-fig5.yaml configs/nguyen-table1.yaml

# Zheng et al. (2015) LPKPCA Tables 1–6 and Figs. 2, 4, 6 on ORL, Yale B and
# Scene-15 (needs RUNEXP_DATA). One process, so the GIST descriptors and the
# kernel PCA fits are computed once; about an hour, most of it GIST.
lpkpca: build
	./bin/runexp configs/zheng-lpkpca-table1.yaml configs/zheng-lpkpca-table2.yaml configs/zheng-lpkpca-fig2.yaml \
		configs/zheng-lpkpca-table1-lambdascan.yaml configs/zheng-lpkpca-table3.yaml configs/zheng-lpkpca-table4.yaml \
		configs/zheng-lpkpca-fig4.yaml configs/zheng-lpkpca-table3-lambdascan.yaml configs/zheng-lpkpca-table5.yaml \
		configs/zheng-lpkpca-table6.yaml configs/zheng-lpkpca-fig6.yaml

# Every config once, in one process, compared with the committed baseline
# (docs/nightly.md). ONLY='huang-*' runs a subset; the exit status follows
# docs/exit-status.md. About 2.7 hours on 2 cores without a warm cache.
ONLY ?=
suite: build
	./bin/runexp suite --baseline baseline $(if $(ONLY),--only '$(ONLY)')

# The quick configs (the committed baseline covers them), compared with it:
# the nightly job in about 5 minutes on 2 cores (needs RUNEXP_DATA).
QUICK := abrahamsen-hansen-fig2 abrahamsen-hansen-fig3 abrahamsen-hansen-fig6 \
	zheng-lai-table1 zheng-lai-table2 zheng-lai-table3 zheng-lai-table4 \
	huang-table1 huang-table1-pergroup huang-table1-pie huang-table1-pie-pergroup \
	huang-fig5 huang-fig5-k10 huang-fig6 nguyen-table2 \
	zheng-lpkpca-table1 zheng-lpkpca-table2 zheng-lpkpca-fig2
suite-quick: build
	./bin/runexp suite --baseline baseline $(QUICK)

clean:
	rm -rf bin results
