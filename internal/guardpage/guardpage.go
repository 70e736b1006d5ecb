//go:build linux || darwin

// Package guardpage gives tests memory whose neighbours fault, to prove
// that a kernel reads and writes nothing outside the slices it is given.
package guardpage

import (
	"os"
	"syscall"
	"testing"
)

// Page maps three pages, makes the first and the last inaccessible, and
// returns the middle one, with its capacity ending at the page: an input
// placed at its end (page[len(page)-n:]) or start (page[:n]) faults on any
// access just past or just before it. The mapping is removed when the test
// ends; the test is skipped if the system refuses it.
func Page(t testing.TB) []byte {
	t.Helper()
	return Pages(t, 1)
}

// Pages is Page with n accessible pages between the two guards.
func Pages(t testing.TB, n int) []byte {
	t.Helper()
	size := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, (n+2)*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, guard := range [][]byte{mem[:size], mem[(n+1)*size:]} {
		if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	return mem[size : (n+1)*size : (n+1)*size]
}
