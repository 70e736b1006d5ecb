// Package sha1dccheck holds the tests and benchmarks that compare package
// sha1dc with github.com/pjbgf/sha1cd v0.7.0, the package it replaces, and
// with sha1cd's cgo package, which wraps the C code of sha1collisiondetection
// (without cgo it falls back on sha1cd's Go). They live in the generators'
// module because sha1cd may be a dependency here and never in the library's
// go.mod.
//
// It also writes testdata/sha1dc/sha1cd-digests.txt, the digests sha1cd
// gives for the collision files, whole, as prefixes and with data
// appended, from which sha1dc's own tests check the same cases without
// sha1cd:
//
//	go -C gen test ./internal/sha1dccheck -run '^TestRecordedDigests$' -update
package sha1dccheck
