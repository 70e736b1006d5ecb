// Package gcmsm4 holds the tests and benchmarks of the library's gcm
// package over SM4 (github.com/emmansun/gmsm/sm4), in the generators'
// module so that the library's go.mod does not require gmsm: GCM over a
// cipher other than AES, checked against RFC 8998's SM4-GCM vector and
// gmsm's own SM4-GCM, and timed against it.
package gcmsm4
