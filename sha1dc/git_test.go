package sha1dc

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// TestGitBlobIDs is the real client's check: git names a file by the
// collision-detecting SHA-1 of "blob <size>\x00" and its content, so
// sha1dc's digests of the Go tree's src/crypto files and of the four
// collision files, by Sum with every kernel and by SumMany with every
// multi-lane kernel, must be what `git hash-object` prints for them
// (testvectors.GitBlobs, which skips the test where git or the Go tree is
// missing). (The blob header moves a collision file's blocks off the
// state its collision needs, so git and sha1dc detect nothing there and
// both give plain SHA-1; the colliding files themselves are
// TestCollisionFiles'.) With -short it takes 100 files of the Go tree.
func TestGitBlobIDs(t *testing.T) {
	var extra []string
	for _, name := range []string{"shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"} {
		extra = append(extra, testvectors.Path("sha1dc", name))
	}
	files := testvectors.GitBlobs(t, 100, extra...)
	blobs := make([][]byte, len(files))
	want := make([][]byte, len(files))
	for i, f := range files {
		blobs[i] = f.Blob
		var err error
		if want[i], err = hex.DecodeString(f.ID); err != nil {
			t.Fatalf("git hash-object printed %q", f.ID)
		}
	}
	// Sum with every kernel; SumMany with every multi-lane kernel.
	forEachKernel(t, func(t *testing.T) {
		for i, f := range files {
			if s, col := Sum(f.Blob); !bytes.Equal(s[:], want[i]) || col {
				t.Errorf("%s: Sum %x %v, git hash-object %s", f.Path, s, col, f.ID)
			}
		}
	})
	for i := range manyKernels {
		k := &manyKernels[i]
		if !k.available {
			continue
		}
		sums := make([][Size]byte, len(blobs))
		detected := make([]bool, len(blobs))
		sumMany(sums, detected, blobs, k)
		for i, f := range files {
			if !bytes.Equal(sums[i][:], want[i]) || detected[i] {
				t.Errorf("%s: SumMany (%s) %x %v, git hash-object %s", f.Path, k.name, sums[i], detected[i], f.ID)
			}
		}
	}
	t.Logf("%d files", len(files))
}
