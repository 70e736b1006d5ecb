module github.com/simdhash/simdhash/gen

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/simdhash/simdhash v0.0.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/mod v0.23.0 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)

// The generators test what they generate against the library's reference
// code (internal/ref) in this repository.
replace github.com/simdhash/simdhash => ../

tool golang.org/x/perf/cmd/benchstat
