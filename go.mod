module github.com/simdhash/simdhash

go 1.24.0

require (
	github.com/mmcloughlin/avo v0.6.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
