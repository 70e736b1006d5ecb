# simdhash build, test and benchmark targets (GNU make). `make help` lists them.
# The longer shell logic lives in scripts/ci/*.sh (what `make test`, and so CI,
# runs) and scripts/*.sh (what people run by hand: tuning, speed, llvm-mca,
# fuzzing); each script also runs on its own.

GO       ?= go
COUNT    ?= 10
FUZZTIME ?= 30s
BENCHOUT ?= bench.txt
# Files for `make benchstat`, e.g. make benchstat FILES='old.txt new.txt'.
FILES    ?= $(BENCHOUT)
BENCHSTAT ?= benchstat
# The newest Go release: make test vets and tests with it as well as with
# the installed Go (the module's go line stays at the older supported one).
NEWEST_GO ?= go1.27.3

export GO FUZZTIME NEWEST_GO

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
# The steps of `make test` must run one after another, in order, even under -j.
.NOTPARALLEL:
.DEFAULT_GOAL := all

# $(call step,NAME,WHAT): the header line each step prints. WHAT ends with
# the step's rough duration on a quiet 2-core machine, cold Go build cache /
# warm (docs/verification.md has the measurement).
step = @printf '\n==> %s  %s: %s\n' "$$(date +%T)" '$(1)' '$(2)'

.PHONY: all help generate check-generated test test-quick speed-short \
	deps vet test-native test-race test-purego check-deps test-newest-go test-emulated test-bochs \
	fuzz bench benchstat mca clean

all: generate test-quick speed-short ## generate, quick native tests, short speed table

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:[^#]*## /\t/' | expand -t 18

generate: ## regenerate every generated .s (go generate ./...)
	$(call step,generate,$(GO) generate -x ./... - about 40 s cold / 2 s warm)
	$(GO) generate -x ./...

check-generated: ## fail if the committed generated files differ from what go generate writes
	$(call step,check-generated,delete the generated files and regenerate them - about 40 s / 6 s)
	bash scripts/ci/check-generated.sh

test-quick: ## native go test -short, the library and the generators (gen/)
	$(call step,test-quick,$(GO) test -short ./... and in gen/ - about 85 s cold)
	$(GO) test -short ./...
	$(GO) -C gen test -short ./...

speed-short: ## a short speed table of the sha1 and ghash kernels
	$(call step,speed-short,MB/s at 64 and 8192 bytes - about 55 s)
	bash scripts/speed.sh

# Everything CI runs (.ci/run), in this order.
test: deps check-generated vet test-native test-race test-purego check-deps test-newest-go test-emulated ## everything: what CI runs

deps: ## install qemu-user, the aarch64 and arm binutils and gcc (for -race) if missing; download both modules' dependencies
	$(call step,deps,install what is missing - about 7 s with the packages present / 0 s)
	bash scripts/ci/deps.sh

vet: ## go vet on amd64, arm64, arm, 386, s390x, js/wasm and purego
	$(call step,vet,go vet on every target - about 105 s / 2 s)
	bash scripts/ci/vet.sh

test-native: ## native go test (full, not -short), the library and the generators (gen/)
	$(call step,test-native,$(GO) test -count=1 ./... and in gen/ - about 95 s / 50 s)
	$(GO) test -count=1 ./...
	$(GO) -C gen test -count=1 ./...

test-race: ## the shared-use tests of ghash and gcm under the race detector (cgo: needs a C compiler)
	$(call step,test-race,CGO_ENABLED=1 $(GO) test -race -run TestShared ./ghash ./gcm - about 25 s / 2 s)
	CGO_ENABLED=1 $(GO) test -count=1 -race -run '^TestShared$$' ./ghash ./gcm

test-purego: ## go test -tags purego ./...
	$(call step,test-purego,$(GO) test -count=1 -tags purego ./... - about 6 s / 5 s)
	$(GO) test -count=1 -tags purego ./...

check-deps: ## fail if a module importing sha1, sha1dc, ghash and gcm inherits any module but golang.org/x/sys
	$(call step,check-deps,a scratch client module of sha1 sha1dc ghash and gcm - about 1 s)
	bash scripts/ci/check-deps.sh

test-newest-go: ## go vet on every target (and riscv64) and the library's native -short suite, built by the newest Go (NEWEST_GO)
	$(call step,test-newest-go,GOTOOLCHAIN=$(NEWEST_GO): vet and go test -short - about 160 s (its download included) / 8 s)
	GOTOOLCHAIN=$(NEWEST_GO) VET_GOARCHES='arm64 arm 386 s390x riscv64' VET_GEN=0 bash scripts/ci/vet.sh
	GOTOOLCHAIN=$(NEWEST_GO) $(GO) test -count=1 -short ./...

test-emulated: ## the kernels under qemu-x86_64, qemu-i386, qemu-aarch64 and qemu-arm CPU models; crypto/sha1 under qemu-i386 (no SSSE3), -s390x, -loongarch64
	$(call step,test-emulated,native GODEBUG runs and qemu user-mode runs with -test.short - about 135 s / 110 s)
	bash scripts/ci/test-emulated.sh

# Not part of `make test`: for hosts without AVX-512, where make test's
# native runs cannot reach the 512-bit kernels. The first run builds the
# guest kernel (about 5 minutes), and the runs take minutes
# (docs/verification.md). First the
# AVX-512 instruction forms the 512-bit kernels use, against Go models of
# the SDM; then the packages with those kernels dispatched, each run
# checking the kernel chosen, and GODEBUG's choices; last the /proc/cpuinfo
# oracles alone. sha1's tests run with cpu.sha=off: bochs's SHA-NI is wrong.
test-bochs: ## the amd64 kernels under bochs on an AVX-512 CPU model (Tiger Lake); not part of make test
	$(call step,test-bochs,bochs tigerlake runs - about 8 min; 5 more the first time)
	bash scripts/bochs-test.sh ./internal/isacheck -test.count=1 -- SIMDHASH_ISACHECK=require
	bash scripts/bochs-test.sh ./ghash -- SIMDHASH_GHASH_KERNEL=vpclmul512
	bash scripts/bochs-test.sh ./ghash -- GODEBUG=cpu.avx512=off SIMDHASH_GHASH_KERNEL=vpclmul256
	bash scripts/bochs-test.sh ./ghash -test.run '^(TestDispatch|TestRequires|TestKnownAnswers)$$' -- GODEBUG=cpu.vpclmulqdq=off SIMDHASH_GHASH_KERNEL=pclmul
	bash scripts/bochs-test.sh ./sha1 -- GODEBUG=cpu.sha=off SIMDHASH_SHA1_KERNEL=avx2 SIMDHASH_SHA1_MANY_KERNEL=avx512x16
	bash scripts/bochs-test.sh ./sha1 -test.run '^(TestManyDispatch|TestManyRequires|TestSumManyLengths)$$' -- GODEBUG=cpu.sha=off,cpu.avx512=off SIMDHASH_SHA1_MANY_KERNEL=avx2x8
	bash scripts/bochs-test.sh ./ghash -test.run '^TestDispatch$$'
	bash scripts/bochs-test.sh ./sha1 -test.run 'MatchesCPUInfo$$'

fuzz: ## every Fuzz target of sha1, sha1dc (also against sha1cd, in gen/), ghash and gcm, FUZZTIME (30s) each
	$(call step,fuzz,every Fuzz target for $(FUZZTIME))
	bash scripts/fuzz.sh ./sha1 ./sha1dc ./gen/internal/sha1dccheck ./ghash ./gcm

bench: ## all benchmarks, COUNT (10) times, into BENCHOUT (bench.txt); sha1dc against sha1cd from gen/
	$(call step,bench,$(GO) test -bench . -count $(COUNT) into $(BENCHOUT))
	$(GO) test -run '^$$' -bench . -count $(COUNT) ./sha1 ./sha1dc ./ghash ./gcm | tee $(BENCHOUT)
	$(GO) -C gen test -run '^$$' -bench . -count $(COUNT) ./internal/sha1dccheck | tee -a $(BENCHOUT)

benchstat: ## benchstat on FILES (default bench.txt), e.g. FILES='old.txt new.txt'
	$(GO) -C gen tool $(BENCHSTAT) $(abspath $(FILES))

mca: ## llvm-mca estimates: arm64/arm GHASH and SHA-1 (scripts/mca.sh, MCA_ARGS passed on), amd64 and 386 SHA-1 (scripts/mca-x86.sh), amd64 GHASH beside OpenSSL's loop, with floors (scripts/mca-ghash.sh)
	bash scripts/mca.sh $(MCA_ARGS)
	@echo
	bash scripts/mca-x86.sh
	@echo
	bash scripts/mca-ghash.sh

clean: ## remove bench output and stray test binaries
	rm -f $(BENCHOUT) *.test sha1/*.test sha1dc/*.test ghash/*.test gcm/*.test cpu.out mem.out

# The tuning workflow (issue #4): try a generator's knobs, sweep them all,
# measure and plot the speed. None of these is part of `make test`.
GEN   ?=
FLAGS ?=
.PHONY: tune sweep speed plot readme-tables

tune: ## GEN=sha1_avx FLAGS='-lookahead=12': test the variant, then benchstat it against the checked-in kernel (KEEP=1 keeps it)
	@test -n '$(GEN)' || { echo "tune: say which generator: make tune GEN=sha1_avx FLAGS='-lookahead=12' (GEN is a directory of gen/)" >&2; exit 2; }
	$(call step,tune,gen/$(GEN) $(FLAGS) against the checked-in kernel)
	KEEP='$(KEEP)' TUNE_COUNT='$(TUNE_COUNT)' TUNE_BENCHTIME='$(TUNE_BENCHTIME)' bash scripts/tune.sh $(GEN) $(FLAGS)

sweep: ## every knob combination of the sha1x86 and ghash_neon generators, and 24 of sha1arm (gen/sha1_neon), run against internal/ref
	$(call step,sweep,SIMDHASH_SWEEP=full TestSweep of gen/internal/sha1x86 natively (its 386 kernels under qemu-i386) and gen/ghash_neon and gen/internal/sha1arm under qemu)
	SIMDHASH_SWEEP=full $(GO) -C gen test -count=1 -timeout 30m -v -run '^TestSweep(386)?$$' ./internal/sha1x86 ./ghash_neon ./internal/sha1arm

readme-tables: ## measure this machine and rewrite the README's speed tables (gen/tools/readmetables; ROUNDS, 8)
	$(call step,readme-tables,interleaved rounds of every measured table - about 3 minutes)
	$(GO) -C gen run ./tools/readmetables -rounds $(or $(ROUNDS),8) -readme $(abspath README.md)

speed: ## tcrypt-style SHA-1 speed table (ours, crypto/sha1, OpenSSL) in MB/s and cycles/byte; writes docs/speed.json
	$(call step,speed,SHA-1 in the sizes and update patterns of tcrypt - about 3 minutes)
	bash scripts/speed-table.sh

plot: ## docs/speed.svg from docs/speed.json (make speed), checked by rendering it to PNG
	$(call step,plot,docs/speed.svg)
	bash scripts/plot.sh
